#!/usr/bin/python3
"""Writes docs/ascendc_api_status.md: the AscendC API of asc-devkit's reference
(the basic and advanced API lists of docs/zh/api/SIMD-API) against npud's CPU
AscendC headers (simdevice/ascendc/include).

    tools/ascendc_api_status.py <asc-devkit checkout or bare git dir> [output]

An entry is *yes* when the headers define its name (a function, class, struct,
enum, alias or macro) and, for an entry naming one form of an API ("DataCopy
(GMToL1 ND2NZ)"), that form is in SIMULATED_FORMS below; *name only* when the
name exists but that form is not simulated (a program using it fails to
compile with no matching function, never silently); *no* otherwise. The
register (Reg) and tensor API categories are dav-3510 (Ascend 950) APIs, not
simulated. An advanced API is *yes* only when listed in SIMULATED_ADVANCED (its
names often are basic API names with other signatures). An entry npud does not
simulate is *no (not on Atlas A2)* when its page's product support table says the
Atlas A2 lacks it (every form of it, for pages with a table per form; every page
it links, for index pages), or when listed in NOT_ON_A2.
Only names are recorded here, with the reference's categories.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HEADERS = os.path.join(ROOT, "simdevice", "ascendc", "include")
LISTS = [
    ("basic", "docs/zh/api/SIMD-API/基础API/基础API列表.md"),
    ("advanced", "docs/zh/api/SIMD-API/高阶API/高阶API列表.md"),
]
# Forms of an API that npud simulates and tests (entries of the reference lists).
SIMULATED_FORMS = {
    "LoadData（2D矩阵搬运）",
    "LoadData（卷积数据搬运）",
    "DataCopy（L1ToBiasTable-Buffer数据搬运）",
    "DataCopy（L1ToFixpipe-Buffer数据搬运）",
    "DataCopy（GMToL1高维切分数据搬运）",
    "DataCopy（L0C到GM数据搬运）",
    "Fixpipe（L0C到L1数据搬运）",
    "DataCopy（GM与UB切片数据搬运）",
    "DataCopy（GMToL1连续数据搬运）",
    "DataCopy（GMToL1随路转换-ND2NZ搬运）",
    "Fixpipe（L0C到GM数据搬运）",
    "DataCopy（GM与UB连续数据搬运）",
    "DataCopy（GM与UB高维切分数据搬运）",
    "DataCopyPad（GMToUB非对齐数据搬运）",
    "DataCopyPad（UBToGM非对齐数据搬运）",
    "DataCopy（UBToUB连续数据搬运）",
    "DataCopy（UBToUB高维切分数据搬运）",
    "Copy（UBToUB掩码式高维数据搬运）",
    "Neg(ISASI)",
    "PipeBarrier(ISASI)",
    "SetFlag/WaitFlag(ISASI)",
    "CrossCoreSetFlag(ISASI)",
    "CrossCoreWaitFlag(ISASI)",
    "SetAtomicMax(ISASI)",
    "SetAtomicMin(ISASI)",
    "GetSubBlockNum(ISASI)",
    "GetSubBlockIdx(ISASI)",
    "Cast（float转half/int32_t）",
    "Cast（float转bfloat16_t）",
    "Cast（多类型转float）",
    "Compare（结果存入寄存器）",
    "GetCmpMask(ISASI)",
    "SetCmpMask(ISASI)",
    "SetPadValue(ISASI)",
    "Gatherb(ISASI)",
    "GetReduceRepeatSumSpr(ISASI)",
    "GetReduceRepeatMaxMinSpr(ISASI)",
    "GetSystemCycle(ISASI)",
    "GetProgramCounter(ISASI)",
    "WriteGmByPassDCache(ISASI)",
    "ReadGmByPassDCache(ISASI)",
    "ICachePreLoad(ISASI)",
    "GetICachePreloadStatus(ISASI)",
    "设置Kernel类型",  # KERNEL_TASK_TYPE_DEFAULT, read by the kernel scanner
    "BilinearInterpolation(ISASI)",
    "SetStoreAtomicConfig(ISASI)",
    "GetStoreAtomicConfig(ISASI)",
    "SetCtrlSpr(ISASI)",  # ctrl_register.h
    "GetCtrlSpr(ISASI)",
    "SetSaturationFlag(ISASI)",
    "GetSaturationFlag(ISASI)",
}
# Issue 43: the matrix moves between GM, UB, L1 and L0C (cube_copies.h, cube.h) and
# the Mmad control bits (mmad_config.h).
SIMULATED_FORMS |= {
    "LoadData（GMToL1-2D矩阵搬运）",
    "DataCopy（UBToL1连续数据搬运）",
    "DataCopy（UBToL1高维切分数据搬运）",
    "DataCopyPad（UBToL1非对齐数据搬运）",
    "DataCopy（UBToL1随路转换-ND2NZ搬运）",
    "DataCopy（L0C到L1数据搬运）",
    "DataCopy（L1ToGM连续数据搬运）",
    "DataCopy（L1ToGM高维切分数据搬运）",
    "DataCopy（GMToUB随路转换ND2NZ搬运）",
    "DataCopy（UBToGM随路转换NZ2ND搬运）",
    "SetMMColumnMajor/SetMMRowMajor",
}
NOT_SIMULATED_CATEGORIES = ("Reg矢量计算", "TensorAPI")
# Entries the reference lists as unsupported on Atlas A2 (910B), the
# architecture npud simulates first: absent ones are marked so.
NOT_ON_A2 = {
    "Subs", "Divs", "Ands", "Ors", "Prelu(ISASI)", "Mull(ISASI)", "AbsSub(ISASI)",
    "ExpSub(ISASI)", "MulsCast(ISASI)", "Scatter(ISASI)", "Interleave", "DeInterleave",
    "Truncate(ISASI)", "VectorPadding(ISASI)", "Nop", "GetRuntimeUBSize", "GetSsbufBaseAddr",
    "AtomicAdd", "AtomicMin", "AtomicMax", "AtomicCas", "AtomicExch",
    "ShiftLeft（左移位数为Tensor）", "ShiftRight（右移位数为Tensor）",
    "Adds（灵活标量位置）", "Muls（灵活标量位置）", "Maxs（灵活标量位置）", "Mins（灵活标量位置）",
    "Compares（灵活标量位置）", "Select（灵活标量位置）", "Copy（UBToUB连续数据搬运）",
    # advanced math whose pages list Ascend 950 only
    "IsNan", "IsInf", "IsFinite", "Rint", "Fma", "SinCos", "LogicalNot", "LogicalAnd",
    "LogicalAnds", "LogicalOr", "LogicalOrs", "LogicalXor", "BitwiseNot", "BitwiseAnd",
    "BitwiseOr", "BitwiseXor", "Where",
}
# Entries the list spells otherwise than the API's own name (its page's prototype).
SPELLED = {"SetSysWorkSpace": "SetSysWorkspace", "Coordinate": "Coord",
           "Kernel": "KERNEL_TASK_TYPE_DEFAULT"}  # 设置Kernel类型
# Advanced APIs share names with basic ones (Select, ReduceSum...) but not their
# signatures: an advanced entry is simulated only when listed here.
SIMULATED_ADVANCED = {
    "Matmul", "TensorShape",
    "Acos", "Acosh", "Asin", "Asinh", "Atan", "Atanh", "Cos", "Cosh", "Sin", "Sinh", "Tan",
    "Tanh", "Erf", "Erfc", "Exp", "Log", "Power", "Fmod", "Hypot", "Axpy", "Xor",
    "Ceil", "Floor", "Round", "Trunc", "Frac", "Sign", "ClampMax", "ClampMin",
    "Sigmoid", "Silu", "Swish", "Gelu", "FasterGelu", "GeGLU", "ReGlu", "SwiGLU",
    "SoftMax", "SimpleSoftMax", "AdjustSoftMaxRes", "RmsNorm", "LayerNorm", "LayerNorm-Tiling", "Sum", "CumSum", "Arange", "Fill",
    # Issue 44: the advanced APIs of the 04_advanced_api A2 projects, with their tilings.
    "AscendAntiQuant", "AscendDequant", "AscendQuant", "DeepNorm", "LayerNormGrad",
    "LayerNormGrad-Tiling", "LayerNormGradBeta", "LayerNormGradBeta-Tiling", "Normalize",
    "WelfordUpdate", "WelfordFinalize", "LogSoftMax", "SoftmaxFlashV2", "SoftmaxFlashV3",
    "SoftmaxGrad", "SoftmaxGradFront", "ReduceSum", "ReduceMax", "ReduceMin", "TopK", "Concat",
    "Extract", "Sort", "Select", "DropOut", "Transpose", "TransData", "Broadcast", "Pad", "UnPad",
    # Issue 44, the rest of the reductions (adv_reduce_pattern_ops.h, adv_mean_xor_sum.h).
    "Mean", "ReduceXorSum", "ReduceMean", "ReduceAny", "ReduceAll", "ReduceProd",
    "TensorDataType",  # ge::DataType's values (tiling/quant_tiling.h, adv_tiling_test)
    "Digamma", "Lgamma", "FasterGeluV2",  # adv_gamma_gelu_v2.h
    "MrgSort",  # adv_mrg_sort.h
    "BatchNorm", "GroupNorm",  # batch_group_norm.h
    "SoftmaxFlash",  # softmax_flash.h
}
# Entries of which npud simulates some forms only, and which.
PARTLY = {}

# Issue 43: AIPP without colour space conversion (its formula is only in the
# reference's images) and without padding modes 2-3 (aipp.h); those fail the block.
PARTLY.update({
    "LoadImageToLocal": "no colour space conversion, no padding modes 2-3",
    "SetAippFunctions": "no colour space conversion, no padding modes 2-3",
})

ROW = re.compile(r"^\|\s*\[([^\]]+)\](?:\((.+?\.md)\))?")
# A page's product support table: its line for Atlas A2 (910B).
A2_SUPPORT = re.compile(r"Atlas A2 训练系列产品[^：:\n]*[：:]\s*(不?支持)")
LINK = re.compile(r"\]\((.+?\.md)\)")
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def git_show(repo, path):
    git_dir = os.path.join(repo, ".git") if os.path.isdir(os.path.join(repo, ".git")) else repo
    return subprocess.run(["git", "--git-dir", git_dir, "show", "HEAD:" + path],
                          check=True, capture_output=True, text=True).stdout


def page_on_a2(repo, path, depth=1):
    """Whether the reference page at `path` supports Atlas A2: True, False, or None
    when it says nothing. A page without a table of its own (an index of other
    pages) answers for the pages it links: not on A2 when none of them is."""
    try:
        text = git_show(repo, path)
    except subprocess.CalledProcessError:
        return None
    # A page may have a table per form of the API: supported if any form is.
    support = A2_SUPPORT.findall(text)
    if support:
        return "支持" in support
    if depth == 0:
        return None
    answers = [page_on_a2(repo, os.path.normpath(os.path.join(os.path.dirname(path), link)), 0)
               for link in LINK.findall(text)]
    answers = [a for a in answers if a is not None]
    if answers and not any(answers):
        return False
    return None


def defined_names():
    text = ""
    for dirpath, _, files in os.walk(HEADERS):
        for name in files:
            if name.endswith(".h"):
                with open(os.path.join(dirpath, name), encoding="utf-8") as f:
                    text += f.read() + "\n"
    names = set()
    patterns = [
        r"\b(?:struct|class|union)\s+(?:NPUD_ASCENDC_HIDDEN\s+)?([A-Za-z_]\w*)",
        r"\benum\s+(?:class\s+)?([A-Za-z_]\w*)",
        r"\busing\s+([A-Za-z_]\w*)\s*=",
        r"#define\s+([A-Za-z_]\w*)",
        # an API a generator macro defines: NPUD_ADVANCED_UNARY(Sigmoid, ...)
        r"^\s*NPUD_[A-Z_]+\(([A-Z][A-Za-z0-9_]*)\s*,",
        # a function definition or declaration: `<type> Name(` at the start of a line
        r"^\s*(?:template\s*<[^;{]*>\s*)?(?:\[\[[^\]]*\]\]\s*)?(?:static\s+|inline\s+|constexpr\s+)*"
        r"[A-Za-z_][\w:<>,\s\*&]*?[\s\*&]([A-Za-z_]\w*)\s*\(",
    ]
    for pattern in patterns:
        names.update(re.findall(pattern, text, re.MULTILINE))
    return names


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    repo = sys.argv[1]
    output = sys.argv[2] if len(sys.argv) > 2 else os.path.join(ROOT, "docs", "ascendc_api_status.md")
    names = defined_names()
    sections = []  # (list, category, [(entry, identifier, present)])
    for kind, path in LISTS:
        category = None
        for line in git_show(repo, path).splitlines():
            if line.startswith("## "):
                category = line[3:].strip()
                sections.append((kind, category, []))
            elif line.startswith("### ") and category is not None:
                sections.append((kind, category + " / " + line[4:].strip(), []))
            match = ROW.match(line)
            if match and sections:
                entry = match.group(1).strip()
                page = match.group(2)
                ident = IDENT.search(entry)
                listed = ident.group(0) if ident else entry
                key = SPELLED.get(listed, listed)
                is_form = entry != listed
                if any(c in sections[-1][1] for c in NOT_SIMULATED_CATEGORIES):
                    status = "no (dav-3510)"
                elif ((key not in names or (is_form and entry not in SIMULATED_FORMS)) and
                      (entry in NOT_ON_A2 or (page and page_on_a2(repo, os.path.normpath(
                          os.path.join(os.path.dirname(path), page))) is False))):
                    status = "no (not on Atlas A2)"
                elif key not in names:
                    status = "no"
                elif is_form and entry not in SIMULATED_FORMS and not (
                        kind == "advanced" and entry in SIMULATED_ADVANCED):
                    status = "name only"
                elif kind == "advanced" and key not in SIMULATED_ADVANCED:
                    status = "name only"
                elif entry in PARTLY:
                    status = "partly: " + PARTLY[entry]
                else:
                    status = "yes"
                sections[-1][2].append((entry, key, status))
    sections = [s for s in sections if s[2]]
    total = sum(len(rows) for _, _, rows in sections)
    present = sum(1 for _, _, rows in sections for r in rows if r[2] == "yes")
    named = sum(1 for _, _, rows in sections for r in rows if r[2] == "name only")
    out = ["# AscendC API surface", "",
           "Generated by `tools/ascendc_api_status.py` from asc-devkit's API lists",
           "(`docs/zh/api/SIMD-API`, basic and advanced API) against",
           "`simdevice/ascendc/include`; do not edit. *yes*: simulated; *name only*: the",
           "name exists but this form of it is not simulated (using it does not compile);",
           "*no (dav-3510)*: an Ascend 950 API, not simulated; *no (not on Atlas A2)*: the",
           "reference does not support it on the 910B either.", "",
           f"**{present} of {total} entries simulated, {named} more by name only.**", "",
           "| list | category | yes | name only | entries |", "|---|---|---|---|---|"]
    for kind, category, rows in sections:
        yes = sum(1 for r in rows if r[2] == "yes")
        only = sum(1 for r in rows if r[2] == "name only")
        out.append(f"| {kind} | {category} | {yes} | {only} | {len(rows)} |")
    for kind, category, rows in sections:
        out += ["", f"## {kind}: {category}", "", "| entry | name | present |", "|---|---|---|"]
        for entry, key, ok in rows:
            out.append(f"| {entry.replace('|', '/')} | `{key}` | {ok} |")
    with open(output, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")
    print(f"{output}: {present} of {total} entries simulated, {named} by name only")


if __name__ == "__main__":
    main()
