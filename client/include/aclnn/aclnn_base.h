/*
 * aclnn_base.h: the status codes and base types of CANN's aclnn operator
 * API (the two-phase GetWorkspaceSize + execute convention), as npud's
 * operator library (libopapi.so, libnnopbase.so) implements it.
 */
#ifndef NPUD_ACLNN_ACLNN_BASE_H_
#define NPUD_ACLNN_ACLNN_BASE_H_

#include "aclnn/acl_meta.h"

#endif  // NPUD_ACLNN_ACLNN_BASE_H_
