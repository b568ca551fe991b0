// validate.mjs FILE...: checks every Kubernetes object in the YAML files
// against the Kubernetes object schemas of the kubernetes-models package
// (npm install kubernetes-models js-yaml, then run this file from where
// node_modules is). Kustomization files are not objects and are skipped.
// Exits 1 if any object is invalid.
import fs from "node:fs";
import * as yaml from "js-yaml";

let failed = 0;
for (const file of process.argv.slice(2)) {
  for (const doc of yaml.loadAll(fs.readFileSync(file, "utf8"))) {
    if (!doc || doc.kind === "Kustomization") continue;
    const name = `${file}: ${doc.kind} ${doc.metadata?.name ?? "(no name)"}`;
    try {
      // "v1" (the core group) or "apps/v1": the package's module paths.
      const models = await import(`kubernetes-models/${doc.apiVersion}`);
      if (!models[doc.kind]) throw new Error(`${doc.apiVersion} has no kind ${doc.kind}`);
      new models[doc.kind](doc).validate();
      console.log(`ok      ${name}`);
    } catch (error) {
      failed++;
      console.log(`INVALID ${name}: ${error.message}`);
    }
  }
}
process.exit(failed === 0 ? 0 : 1);
