// tdt_peer: another process holding a TDT queue, for tdt_test. Creates a
// queue named argv[1] on device 0, prints "QUEUE <id>", and exits without
// destroying it once its stdin closes (as a crashing program would).

#include <cstdio>
#include <iostream>
#include <string>

#include "acl/acl.h"
#include "acl/acl_tdt_queue.h"

int main(int argc, char** argv) {
  if (argc != 2) return 2;
  if (aclInit(nullptr) != ACL_SUCCESS || aclrtSetDevice(0) != ACL_SUCCESS) return 1;
  acltdtQueueAttr* attr = acltdtCreateQueueAttr();
  const char* name = argv[1];
  uint32_t id = 0;
  if (acltdtSetQueueAttr(attr, ACL_TDT_QUEUE_NAME_PTR, sizeof(name), &name) != ACL_SUCCESS ||
      acltdtCreateQueue(attr, &id) != ACL_SUCCESS) {
    std::printf("FAILED\n");
    return 1;
  }
  acltdtDestroyQueueAttr(attr);  // The queue stays; the attributes go.
  std::printf("QUEUE %u\n", id);
  std::fflush(stdout);
  std::string line;
  std::getline(std::cin, line);
  return 0;
}
