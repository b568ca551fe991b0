// kernel_operator_list_tensor_intf.h: the reference's header for ListTensorDesc and
// TensorDesc (npud_ascendc/list_tensor.h), which kernels include beside
// kernel_operator.h.
#ifndef NPUD_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
#define NPUD_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_

#include "kernel_operator.h"
#include "npud_ascendc/list_tensor.h"

#endif  // NPUD_KERNEL_OPERATOR_LIST_TENSOR_INTF_H_
