// The types of the error-code constants and numeric macros of the public
// ACL headers (see abi_check.h).

#include "tests/abi/abi_check.h"

namespace {

// ACL_ERROR_* are static const int, ACL_ERROR_GE_* static const uint32_t (section 5).
ABI_SAME(decltype(ACL_ERROR_NONE), const int);
ABI_SAME(decltype(ACL_SUCCESS), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_PARAM), const int);
ABI_SAME(decltype(ACL_ERROR_UNINITIALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_INITIALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_WRITE_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_FILE_SIZE), const int);
ABI_SAME(decltype(ACL_ERROR_PARSE_FILE), const int);
ABI_SAME(decltype(ACL_ERROR_FILE_MISSING_ATTR), const int);
ABI_SAME(decltype(ACL_ERROR_FILE_ATTR_INVALID), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_DUMP_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_PROFILING_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_MODEL_ID), const int);
ABI_SAME(decltype(ACL_ERROR_DESERIALIZE_MODEL), const int);
ABI_SAME(decltype(ACL_ERROR_PARSE_MODEL), const int);
ABI_SAME(decltype(ACL_ERROR_READ_MODEL_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_SIZE_INVALID), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_MISSING_ATTR), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_INPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_OUTPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_MODEL_NOT_DYNAMIC), const int);
ABI_SAME(decltype(ACL_ERROR_OP_TYPE_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_INPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_OUTPUT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_ATTR_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_NOT_FOUND), const int);
ABI_SAME(decltype(ACL_ERROR_OP_LOAD_FAILED), const int);
ABI_SAME(decltype(ACL_ERROR_UNSUPPORTED_DATA_TYPE), const int);
ABI_SAME(decltype(ACL_ERROR_FORMAT_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_BIN_SELECTOR_NOT_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_KERNEL_NOT_FOUND), const int);
ABI_SAME(decltype(ACL_ERROR_BIN_SELECTOR_ALREADY_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_KERNEL_ALREADY_REGISTERED), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_QUEUE_ID), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_STREAM_NOT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_THREAD_NOT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_WAIT_CALLBACK_TIMEOUT), const int);
ABI_SAME(decltype(ACL_ERROR_REPEAT_FINALIZE), const int);
ABI_SAME(decltype(ACL_ERROR_NOT_STATIC_AIPP), const int);
ABI_SAME(decltype(ACL_ERROR_COMPILING_STUB_MODE), const int);
ABI_SAME(decltype(ACL_ERROR_GROUP_NOT_SET), const int);
ABI_SAME(decltype(ACL_ERROR_GROUP_NOT_CREATE), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_ALREADY_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_NOT_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_DUMP_ALREADY_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_DUMP_NOT_RUN), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_REPEAT_SUBSCRIBE), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_API_CONFLICT), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_MAX_OPQUEUE_NUM_CONFIG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_OPP_PATH), const int);
ABI_SAME(decltype(ACL_ERROR_OP_UNSUPPORTED_DYNAMIC), const int);
ABI_SAME(decltype(ACL_ERROR_RELATIVE_RESOURCE_NOT_CLEARED), const int);
ABI_SAME(decltype(ACL_ERROR_UNSUPPORTED_JPEG), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_BUNDLE_MODEL_ID), const int);
ABI_SAME(decltype(ACL_ERROR_BAD_ALLOC), const int);
ABI_SAME(decltype(ACL_ERROR_API_NOT_SUPPORT), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_DEVICE), const int);
ABI_SAME(decltype(ACL_ERROR_MEMORY_ADDRESS_UNALIGNED), const int);
ABI_SAME(decltype(ACL_ERROR_RESOURCE_NOT_MATCH), const int);
ABI_SAME(decltype(ACL_ERROR_INVALID_RESOURCE_HANDLE), const int);
ABI_SAME(decltype(ACL_ERROR_FEATURE_UNSUPPORTED), const int);
ABI_SAME(decltype(ACL_ERROR_PROF_MODULES_UNSUPPORTED), const int);
ABI_SAME(decltype(ACL_ERROR_STORAGE_OVER_LIMIT), const int);
ABI_SAME(decltype(ACL_ERROR_INTERNAL_ERROR), const int);
ABI_SAME(decltype(ACL_ERROR_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_GE_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_RT_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_DRV_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_PROFILING_FAILURE), const int);
ABI_SAME(decltype(ACL_ERROR_GE_PARAM_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_NOT_INIT), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_PATH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_ID_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_DATA_SIZE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_ADDR_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_MODEL_QUEUE_ID_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_MODEL_REPEATED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_INPUT_ADDR_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_INPUT_LENGTH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DYNAMIC_BATCH_SIZE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_BATCH_EMPTY), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_NOT_EXIST), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_AIPP_MODE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_OP_TASK_TYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_OP_KERNEL_TYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_PLGMGR_PATH_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_FORMAT_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_SHAPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DATATYPE_INVALID), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MEMORY_ALLOCATION), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MEMORY_OPERATE_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DEVICE_MEMORY_OPERATE_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_SUBHEALTHY), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_USER_RAISE_EXCEPTION), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_DATA_NOT_ALIGNED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_INTERNAL_ERROR), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_LOAD_MODEL), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_MODEL_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_WEIGHT_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_TASK_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_LOAD_KERNEL_PARTITION_FAILED), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_EXEC_RELEASE_MODEL_DATA), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_COMMAND_HANDLE), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_GET_TENSOR_INFO), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_UNLOAD_MODEL), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_MODEL_EXECUTE_TIMEOUT), const uint32_t);
ABI_SAME(decltype(ACL_ERROR_GE_REDEPLOYING), const uint32_t);

// Runtime error codes are object-like macros (section 5.2).
#ifndef ACL_RT_SUCCESS
#error "ACL_RT_SUCCESS must be a macro"
#endif
#ifndef ACL_ERROR_RT_PARAM_INVALID
#error "ACL_ERROR_RT_PARAM_INVALID must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DEVICEID
#error "ACL_ERROR_RT_INVALID_DEVICEID must be a macro"
#endif
#ifndef ACL_ERROR_RT_CONTEXT_NULL
#error "ACL_ERROR_RT_CONTEXT_NULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CONTEXT
#error "ACL_ERROR_RT_STREAM_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_CONTEXT
#error "ACL_ERROR_RT_MODEL_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_MODEL
#error "ACL_ERROR_RT_STREAM_MODEL must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID
#error "ACL_ERROR_RT_EVENT_TIMESTAMP_INVALID must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL
#error "ACL_ERROR_RT_EVENT_TIMESTAMP_REVERSAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_ADDR_UNALIGNED
#error "ACL_ERROR_RT_ADDR_UNALIGNED must be a macro"
#endif
#ifndef ACL_ERROR_RT_FILE_OPEN
#error "ACL_ERROR_RT_FILE_OPEN must be a macro"
#endif
#ifndef ACL_ERROR_RT_FILE_WRITE
#error "ACL_ERROR_RT_FILE_WRITE must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_SUBSCRIBE
#error "ACL_ERROR_RT_STREAM_SUBSCRIBE must be a macro"
#endif
#ifndef ACL_ERROR_RT_THREAD_SUBSCRIBE
#error "ACL_ERROR_RT_THREAD_SUBSCRIBE must be a macro"
#endif
#ifndef ACL_ERROR_RT_GROUP_NOT_SET
#error "ACL_ERROR_RT_GROUP_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_GROUP_NOT_CREATE
#error "ACL_ERROR_RT_GROUP_NOT_CREATE must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NO_CB_REG
#error "ACL_ERROR_RT_STREAM_NO_CB_REG must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_MEMORY_TYPE
#error "ACL_ERROR_RT_INVALID_MEMORY_TYPE must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_HANDLE
#error "ACL_ERROR_RT_INVALID_HANDLE must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_MALLOC_TYPE
#error "ACL_ERROR_RT_INVALID_MALLOC_TYPE must be a macro"
#endif
#ifndef ACL_ERROR_RT_WAIT_TIMEOUT
#error "ACL_ERROR_RT_WAIT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_TIMEOUT
#error "ACL_ERROR_RT_TASK_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYSPARAMOPT_NOT_SET
#error "ACL_ERROR_RT_SYSPARAMOPT_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_TASK_ABORT
#error "ACL_ERROR_RT_DEVICE_TASK_ABORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_ABORT
#error "ACL_ERROR_RT_STREAM_ABORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_DEPENDENCY
#error "ACL_ERROR_RT_CAPTURE_DEPENDENCY must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_UNJOINED
#error "ACL_ERROR_RT_STREAM_UNJOINED must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_CAPTURED
#error "ACL_ERROR_RT_MODEL_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURED
#error "ACL_ERROR_RT_STREAM_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_CAPTURED
#error "ACL_ERROR_RT_EVENT_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NOT_CAPTURED
#error "ACL_ERROR_RT_STREAM_NOT_CAPTURED must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT
#error "ACL_ERROR_RT_CAPTURE_MODE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT
#error "ACL_ERROR_RT_STREAM_CAPTURE_IMPLICIT must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_CAPTURE_CONFLICT
#error "ACL_ERROR_STREAM_CAPTURE_CONFLICT must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_TASK_GROUP_STATUS
#error "ACL_ERROR_STREAM_TASK_GROUP_STATUS must be a macro"
#endif
#ifndef ACL_ERROR_STREAM_TASK_GROUP_INTR
#error "ACL_ERROR_STREAM_TASK_GROUP_INTR must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_ABORT_STOP
#error "ACL_ERROR_RT_TASK_ABORT_STOP must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED
#error "ACL_ERROR_RT_STREAM_CAPTURE_UNMATCHED must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_RUNNING
#error "ACL_ERROR_RT_MODEL_RUNNING must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD
#error "ACL_ERROR_RT_STREAM_CAPTURE_WRONG_THREAD must be a macro"
#endif
#ifndef ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY
#error "ACL_ERROR_RT_INSUFFICIENT_INPUT_ARRAY must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_UPDATE_FAILED
#error "ACL_ERROR_RT_MODEL_UPDATE_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC
#error "ACL_ERROR_RT_CAPTURE_MODE_BLOCK_ASYNC must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYMBOL_NOT_FOUND
#error "ACL_ERROR_RT_SYMBOL_NOT_FOUND must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_SYMBOL
#error "ACL_ERROR_RT_INVALID_SYMBOL must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DEVICE_FUNCTION
#error "ACL_ERROR_RT_INVALID_DEVICE_FUNCTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING
#error "ACL_ERROR_RT_SUB_ACLGRAPH_IS_CAPTURING must be a macro"
#endif
#ifndef ACL_ERROR_RT_FEATURE_NOT_SUPPORT
#error "ACL_ERROR_RT_FEATURE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MEMORY_ALLOCATION
#error "ACL_ERROR_RT_MEMORY_ALLOCATION must be a macro"
#endif
#ifndef ACL_ERROR_RT_MEMORY_FREE
#error "ACL_ERROR_RT_MEMORY_FREE must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_OVER_FLOW
#error "ACL_ERROR_RT_AICORE_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_DEVICE
#error "ACL_ERROR_RT_NO_DEVICE must be a macro"
#endif
#ifndef ACL_ERROR_RT_RESOURCE_ALLOC_FAIL
#error "ACL_ERROR_RT_RESOURCE_ALLOC_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_PERMISSION
#error "ACL_ERROR_RT_NO_PERMISSION must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_EVENT_RESOURCE
#error "ACL_ERROR_RT_NO_EVENT_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_STREAM_RESOURCE
#error "ACL_ERROR_RT_NO_STREAM_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_NOTIFY_RESOURCE
#error "ACL_ERROR_RT_NO_NOTIFY_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_MODEL_RESOURCE
#error "ACL_ERROR_RT_NO_MODEL_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_NO_CDQ_RESOURCE
#error "ACL_ERROR_RT_NO_CDQ_RESOURCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_OVER_LIMIT
#error "ACL_ERROR_RT_OVER_LIMIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_QUEUE_EMPTY
#error "ACL_ERROR_RT_QUEUE_EMPTY must be a macro"
#endif
#ifndef ACL_ERROR_RT_QUEUE_FULL
#error "ACL_ERROR_RT_QUEUE_FULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_REPEATED_INIT
#error "ACL_ERROR_RT_REPEATED_INIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AIVEC_OVER_FLOW
#error "ACL_ERROR_RT_AIVEC_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_OVER_FLOW
#error "ACL_ERROR_RT_OVER_FLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_OOM
#error "ACL_ERROR_RT_DEVICE_OOM must be a macro"
#endif
#ifndef ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP
#error "ACL_ERROR_RT_FEATURE_NOT_SUPPORT_UPDATE_OP must be a macro"
#endif
#ifndef ACL_ERROR_RT_TIMEOUT
#error "ACL_ERROR_RT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED
#error "ACL_ERROR_RT_LINK_TYPE_NOT_SUPPORTED must be a macro"
#endif
#ifndef ACL_ERROR_RT_INTERNAL_ERROR
#error "ACL_ERROR_RT_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_TS_ERROR
#error "ACL_ERROR_RT_TS_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_TASK_FULL
#error "ACL_ERROR_RT_STREAM_TASK_FULL must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_TASK_EMPTY
#error "ACL_ERROR_RT_STREAM_TASK_EMPTY must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_NOT_COMPLETE
#error "ACL_ERROR_RT_STREAM_NOT_COMPLETE must be a macro"
#endif
#ifndef ACL_ERROR_RT_END_OF_SEQUENCE
#error "ACL_ERROR_RT_END_OF_SEQUENCE must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_NOT_COMPLETE
#error "ACL_ERROR_RT_EVENT_NOT_COMPLETE must be a macro"
#endif
#ifndef ACL_ERROR_RT_CONTEXT_RELEASE_ERROR
#error "ACL_ERROR_RT_CONTEXT_RELEASE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SOC_VERSION
#error "ACL_ERROR_RT_SOC_VERSION must be a macro"
#endif
#ifndef ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT
#error "ACL_ERROR_RT_TASK_TYPE_NOT_SUPPORT must be a macro"
#endif
#ifndef ACL_ERROR_RT_LOST_HEARTBEAT
#error "ACL_ERROR_RT_LOST_HEARTBEAT must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_EXECUTE
#error "ACL_ERROR_RT_MODEL_EXECUTE must be a macro"
#endif
#ifndef ACL_ERROR_RT_REPORT_TIMEOUT
#error "ACL_ERROR_RT_REPORT_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_SYS_DMA
#error "ACL_ERROR_RT_SYS_DMA must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TIMEOUT
#error "ACL_ERROR_RT_AICORE_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_EXCEPTION
#error "ACL_ERROR_RT_AICORE_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_EXCEPTION
#error "ACL_ERROR_RT_AICORE_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_TIMEOUT
#error "ACL_ERROR_RT_AICPU_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_EXCEPTION
#error "ACL_ERROR_RT_AICPU_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR
#error "ACL_ERROR_RT_AICPU_DATADUMP_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_MODEL_RSP_ERR
#error "ACL_ERROR_RT_AICPU_MODEL_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_PROFILING_ERROR
#error "ACL_ERROR_RT_PROFILING_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_IPC_ERROR
#error "ACL_ERROR_RT_IPC_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_MODEL_ABORT_NORMAL
#error "ACL_ERROR_RT_MODEL_ABORT_NORMAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_UNREGISTERING
#error "ACL_ERROR_RT_KERNEL_UNREGISTERING must be a macro"
#endif
#ifndef ACL_ERROR_RT_RINGBUFFER_NOT_INIT
#error "ACL_ERROR_RT_RINGBUFFER_NOT_INIT must be a macro"
#endif
#ifndef ACL_ERROR_RT_RINGBUFFER_NO_DATA
#error "ACL_ERROR_RT_RINGBUFFER_NO_DATA must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_LOOKUP
#error "ACL_ERROR_RT_KERNEL_LOOKUP must be a macro"
#endif
#ifndef ACL_ERROR_RT_KERNEL_DUPLICATE
#error "ACL_ERROR_RT_KERNEL_DUPLICATE must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEBUG_REGISTER_FAIL
#error "ACL_ERROR_RT_DEBUG_REGISTER_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL
#error "ACL_ERROR_RT_DEBUG_UNREGISTER_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_RT_LABEL_CONTEXT
#error "ACL_ERROR_RT_LABEL_CONTEXT must be a macro"
#endif
#ifndef ACL_ERROR_RT_PROGRAM_USE_OUT
#error "ACL_ERROR_RT_PROGRAM_USE_OUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEV_SETUP_ERROR
#error "ACL_ERROR_RT_DEV_SETUP_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TIMEOUT
#error "ACL_ERROR_RT_VECTOR_CORE_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_EXCEPTION
#error "ACL_ERROR_RT_VECTOR_CORE_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_CDQ_BATCH_ABNORMAL
#error "ACL_ERROR_RT_CDQ_BATCH_ABNORMAL must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR
#error "ACL_ERROR_RT_DIE_MODE_CHANGE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_SET_ERROR
#error "ACL_ERROR_RT_DIE_SET_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_INVALID_DIEID
#error "ACL_ERROR_RT_INVALID_DIEID must be a macro"
#endif
#ifndef ACL_ERROR_RT_DIE_MODE_NOT_SET
#error "ACL_ERROR_RT_DIE_MODE_NOT_SET must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW
#error "ACL_ERROR_RT_AICORE_TRAP_READ_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW
#error "ACL_ERROR_RT_AICORE_TRAP_WRITE_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_READ_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW
#error "ACL_ERROR_RT_VECTOR_CORE_TRAP_WRITE_OVERFLOW must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_SYNC_TIMEOUT
#error "ACL_ERROR_RT_STREAM_SYNC_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_EVENT_SYNC_TIMEOUT
#error "ACL_ERROR_RT_EVENT_SYNC_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_TIMEOUT
#error "ACL_ERROR_RT_FFTS_PLUS_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_EXCEPTION
#error "ACL_ERROR_RT_FFTS_PLUS_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION
#error "ACL_ERROR_RT_FFTS_PLUS_TRAP_EXCEPTION must be a macro"
#endif
#ifndef ACL_ERROR_RT_SEND_MSG
#error "ACL_ERROR_RT_SEND_MSG must be a macro"
#endif
#ifndef ACL_ERROR_RT_COPY_DATA
#error "ACL_ERROR_RT_COPY_DATA must be a macro"
#endif
#ifndef ACL_ERROR_RT_DEVICE_MEM_ERROR
#error "ACL_ERROR_RT_DEVICE_MEM_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR
#error "ACL_ERROR_RT_HBM_MULTI_BIT_ECC_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR
#error "ACL_ERROR_RT_SUSPECT_DEVICE_MEM_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_LINK_ERROR
#error "ACL_ERROR_RT_LINK_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SUSPECT_REMOTE_ERROR
#error "ACL_ERROR_RT_SUSPECT_REMOTE_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_DRV_INTERNAL_ERROR
#error "ACL_ERROR_RT_DRV_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_INTERNAL_ERROR
#error "ACL_ERROR_RT_AICPU_INTERNAL_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_SOCKET_CLOSE
#error "ACL_ERROR_RT_SOCKET_CLOSE must be a macro"
#endif
#ifndef ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR
#error "ACL_ERROR_RT_AICPU_INFO_LOAD_RSP_ERR must be a macro"
#endif
#ifndef ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED
#error "ACL_ERROR_RT_STREAM_CAPTURE_INVALIDATED must be a macro"
#endif
#ifndef ACL_ERROR_RT_COMM_OP_RETRY_FAIL
#error "ACL_ERROR_RT_COMM_OP_RETRY_FAIL must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT
#error "ACL_ERROR_SNAPSHOT_LOCK_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_LOCK_FAILED
#error "ACL_ERROR_SNAPSHOT_LOCK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_UNLOCK_FAILED
#error "ACL_ERROR_SNAPSHOT_UNLOCK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_BACKUP_FAILED
#error "ACL_ERROR_SNAPSHOT_BACKUP_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_RESTORE_FAILED
#error "ACL_ERROR_SNAPSHOT_RESTORE_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED
#error "ACL_ERROR_HOST_MEMORY_ALREADY_REGISTERED must be a macro"
#endif
#ifndef ACL_ERROR_HOST_MEMORY_NOT_REGISTERED
#error "ACL_ERROR_HOST_MEMORY_NOT_REGISTERED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_CALLBACK_FAILED
#error "ACL_ERROR_SNAPSHOT_CALLBACK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED
#error "ACL_ERROR_SNAPSHOT_REGISTER_CALLBACK_FAILED must be a macro"
#endif
#ifndef ACL_ERROR_RT_L3_PORT_ERROR
#error "ACL_ERROR_RT_L3_PORT_ERROR must be a macro"
#endif
#ifndef ACL_ERROR_RT_CCU_TIMEOUT
#error "ACL_ERROR_RT_CCU_TIMEOUT must be a macro"
#endif
#ifndef ACL_ERROR_RT_CCU_EXCEPTION
#error "ACL_ERROR_RT_CCU_EXCEPTION must be a macro"
#endif

// Numeric macros keep the literal type of CANN's spelling (section 6).
ABI_SAME(decltype(ACL_MAJOR_VERSION), int);
ABI_SAME(decltype(ACL_MINOR_VERSION), int);
ABI_SAME(decltype(ACL_PATCH_VERSION), int);
ABI_SAME(decltype(ACL_EVENT_SYNC), unsigned int);
ABI_SAME(decltype(ACL_EVENT_CAPTURE_STREAM_PROGRESS), unsigned int);
ABI_SAME(decltype(ACL_EVENT_TIME_LINE), unsigned int);
ABI_SAME(decltype(ACL_EVENT_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_EVENT_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_EVENT_IPC), unsigned int);
ABI_SAME(decltype(ACL_STREAM_FAST_LAUNCH), unsigned int);
ABI_SAME(decltype(ACL_STREAM_FAST_SYNC), unsigned int);
ABI_SAME(decltype(ACL_STREAM_PERSISTENT), unsigned int);
ABI_SAME(decltype(ACL_STREAM_HUGE), unsigned int);
ABI_SAME(decltype(ACL_STREAM_CPU_SCHEDULE), unsigned int);
ABI_SAME(decltype(ACL_STREAM_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_GEQ), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_EQ), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_AND), unsigned int);
ABI_SAME(decltype(ACL_STREAM_WAIT_VALUE_NOR), unsigned int);
ABI_SAME(decltype(ACL_CONTINUE_ON_FAILURE), unsigned int);
ABI_SAME(decltype(ACL_STOP_ON_FAILURE), unsigned int);
ABI_SAME(decltype(ACL_NOTIFY_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_NOTIFY_DEVICE_USE_ONLY), unsigned int);
ABI_SAME(decltype(ACL_DEV_FEATURE_SUPPORT), int);
ABI_SAME(decltype(ACL_DEV_FEATURE_NOT_SUPPORT), int);
ABI_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_NOTIFY_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_IPC_MEM_IMPORT_FLAG_ENABLE_PEER_ACCESS), unsigned long);
ABI_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DEFAULT), unsigned long);
ABI_SAME(decltype(ACL_RT_VMM_EXPORT_FLAG_DISABLE_PID_VALIDATION), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_MAPPED), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_IOMEMORY), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_READONLY), unsigned long);
ABI_SAME(decltype(ACL_HOST_REG_PINNED), unsigned long);
ABI_SAME(decltype(ACL_MDLRI_DEBUG_JSON_PRINT_SUMMARY), unsigned long);
ABI_SAME(decltype(ACL_MDLRI_DEBUG_JSON_PRINT_VERBOSE), unsigned long);
ABI_SAME(decltype(ACL_RT_MAX_RECORD_PA_NUM_PER_DEV), unsigned int);
ABI_SAME(decltype(ACL_IPC_EVENT_HANDLE_SIZE), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_ATTACH_GLOBAL), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_LINK_IDX_0), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_LINK_IDX_1), unsigned int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_PCIE), int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_HCCS), int);
ABI_SAME(decltype(ACL_HOST_DEVICE_CONNECT_TYPE_UB), int);
ABI_SAME(decltype(ACL_EVENT_RECORD_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_EVENT_RECORD_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_EVENT_WAIT_DEFAULT), unsigned int);
ABI_SAME(decltype(ACL_EVENT_WAIT_EXTERNAL), unsigned int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_SIO), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_HCCS), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_ONE_PORT_PATH), int);
ABI_SAME(decltype(ACL_RT_IPC_MEM_ATTR_ACCESS_LINK_UB_MULTI_PORT_PATH), int);
ABI_SAME(decltype(MAX_MEM_UCE_INFO_ARRAY_SIZE), int);
ABI_SAME(decltype(UCE_INFO_RESERVED_SIZE), int);
ABI_SAME(decltype(ACL_RT_MEM_UCE_INFO_MAX_NUM), int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_AICORE), unsigned int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_VECTOR_CORE), unsigned int);
ABI_SAME(decltype(ACL_RT_BINARY_MAGIC_ELF_CUBE_CORE), unsigned int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_POD), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_A_K), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_A_X), int);
ABI_SAME(decltype(ACL_DEVICE_FORM_FACTOR_PCIE_CARD), int);
ABI_SAME(decltype(ACL_RT_CMO_MAX_BARRIER_NUM), unsigned int);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIX), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PIB), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_PHB), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SYS), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_SIO), unsigned long long);
ABI_SAME(decltype(ACL_RT_DEVS_TOPOLOGY_HCCS_SW), unsigned long long);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_DEV), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_DVPP), unsigned int);
ABI_SAME(decltype(ACL_RT_MEM_TYPE_RSVD), unsigned int);
ABI_SAME(decltype(ACL_PKG_VERSION_MAX_SIZE), int);
ABI_SAME(decltype(ACL_PKG_VERSION_PARTS_MAX_SIZE), int);

}  // namespace
