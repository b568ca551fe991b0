/*
 * profiling/aprof_pub.h: the reporting interface of CANN's profiling library
 * (libprofapi.so), which CANN's components use to feed a profiling
 * collection and which some samples include for the model-id calls.
 * Written for npud from CANN's published interface; the names, values and
 * layouts are CANN's, because programs and libraries pass these records
 * through unchanged.
 *
 * What npud does with each call (libacl_rt.so, also named libprofapi.so):
 *   MsprofSetDeviceIdByGeModelIdx / Unset  register a model id for
 *                                          aclprofModelSubscribe
 *   MsprofSysCycleTime                     a time stamp (ns of CLOCK_MONOTONIC_RAW)
 *   MsprofGetHashId, MsprofStr2Id,         string ids, and their strings back
 *   MsprofId2Str
 *   MsprofCheckOpSwitch                    false: no operator filter is set
 *   the rest (init, callbacks, reports,    not simulated: npud's profiling
 *   type registration, MsprofGetPath)      records its own timeline. They
 *                                          return ACL_ERROR_RT_FEATURE_NOT_SUPPORT
 *                                          (0 or NULL where the result is a size
 *                                          or a string) and log once.
 */
#ifndef NPUD_PROFILING_APROF_PUB_H_
#define NPUD_PROFILING_APROF_PUB_H_

#include <stddef.h>
#include <stdint.h>
#ifndef __cplusplus
#include <stdbool.h>
#endif

#ifdef __cplusplus
extern "C" {
#endif

#define MSVP_PROF_API __attribute__((visibility("default")))

typedef void* VOID_PTR;

/* Record framing and sizes. */
#define MSPROF_REPORT_DATA_MAGIC_NUM 0x5A5AU
#define MSPROF_EVENT_FLAG 0xFFFFFFFFFFFFFFFFULL
#define MSPROF_COMPACT_INFO_DATA_LENGTH 40
#define MSPROF_ADDTIONAL_INFO_DATA_LENGTH (232)
#define PATH_LEN_MAX 1023
#define PARAM_LEN_MAX 4095
#define ACC_PMU_EVENT_MAX 10
#define MSPROF_MAX_DEV_NUM 64
#define MSPROF_GE_TENSOR_DATA_SHAPE_LEN 8
#define MSPROF_GE_TENSOR_DATA_NUM 5
#define MSPROF_CTX_ID_MAX_NUM 55
#define MSPROF_OPTIONS_DEF_LEN_MAX (2048U)

/* Report levels. */
#define MSPROF_REPORT_PYTORCH_LEVEL 30000U
#define MSPROF_REPORT_PTA_LEVEL 25000U
#define MSPROF_REPORT_TX_LEVEL 20500U
#define MSPROF_REPORT_ACL_LEVEL 20000U
#define MSPROF_REPORT_MODEL_LEVEL 15000U
#define MSPROF_REPORT_NODE_LEVEL 10000U
#define MSPROF_REPORT_AICPU_LEVEL 6000U
#define MSPROF_REPORT_HCCL_NODE_LEVEL 5500U
#define MSPROF_REPORT_RUNTIME_LEVEL 5000U
#define MSPROF_REPORT_PROF_LEVEL 4500U
#define MSPROF_REPORT_DPU_LEVEL 4000U
#define MSPROF_REPORT_AIC_LEVEL 3000U

/* Report types, per level (offsets within the level). */
#define MSPROF_REPORT_TX_BASE_TYPE 0x000000U
#define MSPROF_REPORT_ACL_OP_BASE_TYPE 0x010000U
#define MSPROF_REPORT_ACL_MODEL_BASE_TYPE 0x020000U
#define MSPROF_REPORT_ACL_RUNTIME_BASE_TYPE 0x030000U
#define MSPROF_REPORT_ACL_OTHERS_BASE_TYPE 0x040000U
#define MSPROF_REPORT_ACL_NN_BASE_TYPE 0x050000U
#define MSPROF_REPORT_ACL_ASCENDC_TYPE 0x060000U
#define MSPROF_REPORT_ACL_HOST_HCCL_BASE_TYPE 0x070000U
#define MSPROF_REPORT_ACL_DVPP_BASE_TYPE 0x090000U
#define MSPROF_REPORT_ACL_GRAPH_BASE_TYPE 0x0A0000U
#define MSPROF_REPORT_ACL_ATB_BASE_TYPE 0x0B0000U
#define MSPROF_REPORT_ACL_HIXL_BASE_TYPE 0x0C0000U

#define MSPROF_REPORT_MODEL_GRAPH_ID_MAP_TYPE 0U
#define MSPROF_REPORT_MODEL_EXECUTE_TYPE 1U
#define MSPROF_REPORT_MODEL_LOAD_TYPE 2U
#define MSPROF_REPORT_MODEL_INPUT_COPY_TYPE 3U
#define MSPROF_REPORT_MODEL_OUTPUT_COPY_TYPE 4U
#define MSPROF_REPORT_MODEL_LOGIC_STREAM_TYPE 7U
#define MSPROF_REPORT_MODEL_EXEOM_TYPE 8U
#define MSPROF_REPORT_MODEL_UDF_BASE_TYPE 0x010000U
#define MSPROF_REPORT_MODEL_AICPU_BASE_TYPE 0x020000U

#define MSPROF_REPORT_NODE_BASIC_INFO_TYPE 0U
#define MSPROF_REPORT_NODE_TENSOR_INFO_TYPE 1U
#define MSPROF_REPORT_NODE_FUSION_OP_INFO_TYPE 2U
#define MSPROF_REPORT_NODE_CONTEXT_ID_INFO_TYPE 4U
#define MSPROF_REPORT_NODE_LAUNCH_TYPE 5U
#define MSPROF_REPORT_NODE_TASK_MEMORY_TYPE 6U
#define MSPROF_REPORT_NODE_HOST_OP_EXEC_TYPE 8U
#define MSPROF_REPORT_NODE_ATTR_INFO_TYPE 9U
#define MSPROF_REPORT_NODE_HCCL_OP_INFO_TYPE 10U
#define MSPROF_REPORT_NODE_STATIC_OP_MEM_TYPE 11U
#define MSPROF_REPORT_NODE_MC2_COMMINFO_TYPE 12U
#define MSPROF_REPORT_NODE_OP_INFO_TYPE 13U
#define MSPROF_REPORT_NODE_GE_API_BASE_TYPE 0x010000U
#define MSPROF_REPORT_NODE_HCCL_BASE_TYPE 0x020000U
#define MSPROF_REPORT_NODE_DVPP_API_BASE_TYPE 0x030000U

#define MSPROF_REPORT_AICPU_NODE_TYPE 0U
#define MSPROF_REPORT_AICPU_DP_TYPE 1U
#define MSPROF_REPORT_AICPU_MODEL_TYPE 2U
#define MSPROF_REPORT_AICPU_MI_TYPE 3U
#define MSPROF_REPORT_AICPU_MC2_EXECUTE_COMM_TIME 4U
#define MSPROF_REPORT_AICPU_MC2_EXECUTE_COMP_TIME 5U
#define MSPROF_REPORT_AICPU_MC2_HCCL_INFO 6U
#define MSPROF_REPORT_AICPU_HCCL_OP_INFO 10U
#define MSPROF_REPORT_AICPU_FILP_TASK 11U
#define MSPROF_REPORT_AICPU_HCCL_FLAG_TASK 12U
#define MSPROF_REPORT_AICPU_MC2_BATCH_HCCL_INFO 13U
#define MSPROF_REPORT_AICPU_AST_TYPE 14U

#define MSPROF_REPORT_HCCL_NODE_BASE_TYPE 0x010000U
#define MSPROF_REPORT_HCCL_MASTER_TYPE 0x010001U
#define MSPROF_REPORT_HCCL_SLAVE_TYPE 0x010002U
#define MSPROF_REPORT_DPU_TRACK_TYPE 0U
#define MSPROF_REPORT_DIAGNOSTIC_INFO_TYPE 0x010000U
#define MSPROF_REPORT_AIC_TIMESTAMP_TYPE 0x0U

/* Task-time switches (AdprofCheckFeatureIsOn). */
#define ADPROF_TASK_TIME_L0 0x00000008ULL
#define ADPROF_TASK_TIME_L1 0x00000010ULL
#define ADPROF_TASK_TIME_L2 0x00000020ULL

/* Data type switches of a collection (MsprofCommandHandle.profSwitch). */
#define PROF_ACL_API_MASK 0x00000001ULL
#define PROF_TASK_TIME_L1_MASK 0x00000002ULL
#define PROF_AICORE_METRICS_MASK 0x00000004ULL
#define PROF_AICPU_TRACE_MASK 0x00000008ULL
#define PROF_L2CACHE_MASK 0x00000010ULL
#define PROF_HCCL_TRACE_MASK 0x00000020ULL
#define PROF_TRAINING_TRACE_MASK 0x00000040ULL
#define PROF_MSPROFTX_MASK 0x00000080ULL
#define PROF_RUNTIME_API_MASK 0x00000100ULL
#define PROF_TASK_FRAMEWORK_MASK 0x00000200ULL
#define PROF_FWK_SCHEDULE_L0_MASK 0x00000200ULL
#define PROF_GE_API_L0_MASK 0x00000200ULL
#define PROF_TASK_TSFW_MASK 0x00000400ULL
#define PROF_TASK_TIME_MASK 0x00000800ULL
#define PROF_TASK_MEMORY_MASK 0x00001000ULL
#define PROF_TASK_TIME_L2_MASK 0x00002000ULL
#define PROF_OP_ATTR_MASK 0x00004000ULL
#define PROF_TASK_TIME_L3_MASK 0x00008000ULL
#define PROF_AICORE_SHAPE_MASK 0x800000000ULL
#define PROF_CPU_MASK 0x00010000ULL
#define PROF_HARDWARE_MEMORY_MASK 0x00020000ULL
#define PROF_IO_MASK 0x00040000ULL
#define PROF_INTER_CONNECTION_MASK 0x00080000ULL
#define PROF_DVPP_MASK 0x00100000ULL
#define PROF_SYS_AICORE_SAMPLE_MASK 0x00200000ULL
#define PROF_AIVECTORCORE_SAMPLE_MASK 0x00400000ULL
#define PROF_INSTR_MASK 0x00800000ULL
#define PROF_MODEL_EXECUTE_MASK 0x0000001000000ULL
#define PROF_FWK_SCHEDULE_L1_MASK 0x0000001000000ULL
#define PROF_GE_API_L1_MASK 0x0000001000000ULL
#define PROF_RUNTIME_TRACE_MASK 0x0000004000000ULL
#define PROF_SCHEDULE_TIMELINE_MASK 0x0000008000000ULL
#define PROF_SCHEDULE_TRACE_MASK 0x0000010000000ULL
#define PROF_AIVECTORCORE_METRICS_MASK 0x0000020000000ULL
#define PROF_SUBTASK_TIME_MASK 0x0000040000000ULL
#define PROF_OP_DETAIL_MASK 0x0000080000000ULL
#define PROF_OP_TIMESTAMP_MASK 0x0000100000000ULL
#define PROF_OP_MASK 0x0000200000000ULL
#define PROF_AICPU_MODEL_MASK 0x4000000000000000ULL
#define PROF_MODEL_LOAD_MASK 0x8000000000000000ULL

enum MsprofErrorCode {
    MSPROF_ERROR_NONE = 0,
    MSPROF_ERROR_MEM_NOT_ENOUGH,
    MSPROF_ERROR_GET_ENV,
    MSPROF_ERROR_CONFIG_INVALID,
    MSPROF_ERROR_ACL_JSON_OFF,
    MSPROF_ERROR,
    MSPROF_ERROR_UNINITIALIZE,
};

/* MsprofInit's dataType. */
enum MsprofCtrlCallbackType {
    MSPROF_CTRL_INIT_ACL_ENV = 0,
    MSPROF_CTRL_INIT_ACL_JSON = 1,
    MSPROF_CTRL_INIT_GE_OPTIONS = 2,
    MSPROF_CTRL_FINALIZE = 3,
    MSPROF_CTRL_INIT_HELPER = 4,
    MSPROF_CTRL_INIT_PURE_CPU = 5,
    MSPROF_CTRL_INIT_AICPU = 6,
    MSPROF_CTRL_INIT_DYNA = 0xFF,
};

/* MsprofCommandHandle.type. */
enum MsprofCommandHandleType {
    PROF_COMMANDHANDLE_TYPE_INIT = 0,
    PROF_COMMANDHANDLE_TYPE_START,
    PROF_COMMANDHANDLE_TYPE_STOP,
    PROF_COMMANDHANDLE_TYPE_FINALIZE,
    PROF_COMMANDHANDLE_TYPE_MODEL_SUBSCRIBE,
    PROF_COMMANDHANDLE_TYPE_MODEL_UNSUBSCRIBE,
    PROF_COMMANDHANDLE_TYPE_MAX
};

enum MsprofGeTaskType {
    MSPROF_GE_TASK_TYPE_AI_CORE = 0,
    MSPROF_GE_TASK_TYPE_AI_CPU,
    MSPROF_GE_TASK_TYPE_AIV,
    MSPROF_GE_TASK_TYPE_WRITE_BACK,
    MSPROF_GE_TASK_TYPE_MIX_AIC,
    MSPROF_GE_TASK_TYPE_MIX_AIV,
    MSPROF_GE_TASK_TYPE_FFTS_PLUS,
    MSPROF_GE_TASK_TYPE_DSA,
    MSPROF_GE_TASK_TYPE_DVPP,
    MSPROF_GE_TASK_TYPE_HCCL,
    MSPROF_GE_TASK_TYPE_FUSION,
    MSPROF_GE_TASK_TYPE_INVALID
};

enum MsprofGeTensorType {
    MSPROF_GE_TENSOR_TYPE_INPUT = 0,
    MSPROF_GE_TENSOR_TYPE_OUTPUT,
};

enum ProfCtrlType { PROF_CTRL_INVALID = 0, PROF_CTRL_SWITCH, PROF_CTRL_REPORTER, PROF_CTRL_STEPINFO, PROF_CTRL_BUTT };
enum AttrType { OP_ATTR = 0 };
enum MsprofReportBatchType { MSPROF_BATCH_ADDITIONAL_INFO = 0 };
enum MsprofOpSwitchType { MSPROF_OPTYPE = 0 };

typedef enum tagMsprofMemoryType {
    MSPROF_MEMORY_TYPE_UNKNOWN = 0,
    MSPROF_MEMORY_TYPE_HOST = 1,
    MSPROF_MEMORY_TYPE_DEVICE = 2,
    MSPROF_MEMORY_TYPE_MANAGED = 3
} MsprofMemoryType;

/* What a registered ProfCommandHandle receives. */
struct MsprofCommandHandleParams {
    uint32_t pathLen;
    uint32_t storageLimit; /* MiB */
    uint32_t profDataLen;
    char path[PATH_LEN_MAX + 1];
    char profData[PARAM_LEN_MAX + 1];
};

struct MsprofCommandHandle {
    uint64_t profSwitch;
    uint64_t profSwitchHi;
    uint32_t devNums;
    uint32_t devIdList[MSPROF_MAX_DEV_NUM];
    uint32_t modelId;
    uint32_t type;
    uint32_t cacheFlag;
    struct MsprofCommandHandleParams params;
};

/* Records whose layout is packed in CANN's files. */
#pragma pack(push, 1)

struct MsprofAttrInfo {
    uint64_t opName;
    uint32_t attrType;
    uint64_t hashId;
};

/* MsprofInit's data for MSPROF_CTRL_INIT_GE_OPTIONS. */
struct MsprofGeOptions {
    char jobId[MSPROF_OPTIONS_DEF_LEN_MAX];
    char options[MSPROF_OPTIONS_DEF_LEN_MAX];
};

struct MsprofNodeBasicInfo {
    uint64_t opName;
    uint32_t taskType;
    uint64_t opType;
    uint32_t blockDim;
    uint32_t opFlag;
};

struct MsprofHCCLOPInfo {
    uint8_t relay : 1;
    uint8_t retry : 1;
    uint8_t dataType;
    uint64_t algType;   /* hash id of the algorithm's name */
    uint64_t count;
    uint64_t groupName; /* hash id */
};

struct MsrofTensorData {
    uint32_t tensorType;
    uint32_t format;
    uint32_t dataType;
    uint32_t shape[MSPROF_GE_TENSOR_DATA_SHAPE_LEN];
};

struct MsprofTensorInfo {
    uint64_t opName;
    uint32_t tensorNum;
    struct MsrofTensorData tensorData[MSPROF_GE_TENSOR_DATA_NUM];
};

struct MsprofContextIdInfo {
    uint64_t opName;
    uint32_t ctxIdNum;
    uint32_t ctxIds[MSPROF_CTX_ID_MAX_NUM];
};

#pragma pack(pop)

struct MsprofAicTimeStampInfo {
    uint64_t syscyc;
    uint32_t blockId;
    uint32_t descId;
    uint64_t curPc;
};

struct MsprofKernelInfo {
    uint16_t numBlocks;
    uint16_t argsSize;
    uint8_t ratio : 3;
    uint8_t schedMode : 2;
    uint8_t rsv : 3;
    uint8_t reserved[11];
};

struct MsprofDim3 {
    uint16_t x;
    uint16_t y;
    uint16_t z;
};

struct MsprofSimtKernelInfo {
    struct MsprofDim3 gridDim;
    struct MsprofDim3 blockDim;
    uint16_t argsSize;
    uint8_t schedMode : 2;
    uint8_t rsv : 6;
    uint8_t reserved;
};

struct MsprofModelInfo {
    uint32_t modelId;
    uint8_t rsv[12];
};

union MsprofTrackExtInfo {
    struct MsprofKernelInfo kernelInfo;
    struct MsprofSimtKernelInfo simtKernelInfo;
    struct MsprofModelInfo modelInfo;
};

struct MsprofRuntimeTrack {
    uint16_t deviceId;
    uint16_t streamId;
    uint32_t taskId;
    uint64_t taskType;   /* hash id */
    uint64_t kernelName; /* hash id */
    union MsprofTrackExtInfo extInfo;
};

struct MsprofRuntimeTrackV2 {
    uint16_t deviceId;
    uint8_t rsv[2];
    uint32_t streamId;
    uint32_t taskId;
    uint32_t taskType;
    uint64_t kernelName; /* hash id */
    union MsprofTrackExtInfo extInfo;
};

struct MsprofCaptureStreamInfo {
    uint16_t captureStatus; /* 0 live, 1 destroyed */
    uint16_t modelStreamId;
    uint16_t originalStreamId;
    uint16_t modelId;
    uint16_t deviceId;
};

struct MsprofCaptureStreamInfoV2 {
    uint16_t deviceId;
    uint8_t captureStatus;
    uint8_t rsv;
    uint32_t streamId;
    uint32_t originalStreamId;
    uint32_t modelId;
};

struct MsprofStreamSqInfo {
    uint16_t streamStatus; /* 0 created, 1 destroyed */
    uint32_t streamId;
    uint16_t rtsqId;
    uint16_t deviceId;
    uint16_t tsId;
};

struct MsprofMemcpyInfo {
    uint64_t bytes;
    uint16_t copyKind;
    uint16_t deviceId;
    uint32_t streamId;
};

struct MsprofMemsetInfo {
    uint64_t bytes;
    int32_t value;
    uint32_t streamId;
    uint16_t deviceId;
    uint16_t rsv[3];
};

struct MsprofMemMngInfo {
    uint64_t address;
    uint64_t size;
    uint32_t memoryType; /* MsprofMemoryType */
    uint16_t memMngType;
    uint16_t deviceId;
    uint32_t streamId;
    uint32_t rsv;
};

struct MsprofDpuTrack {
    uint16_t deviceId; /* high 4 bits: device type (1 dpu), low 12: id */
    uint16_t streamId;
    uint32_t taskId;
    uint32_t taskType;
    uint32_t res;
    uint64_t startTime;
};

/* A collective's task on the DPU; in C++ every field starts as "unset". */
struct MsprofDpuHcclTrack {
    uint64_t itemId;
    uint64_t cclTag;
    uint64_t groupName;
    uint32_t localRank;
    uint32_t remoteRank;
    uint32_t rankSize;
    uint32_t stage;
    uint64_t notifyID;
    uint64_t timeStamp;
    double durationEstimated;
    uint64_t srcAddr;
    uint64_t dstAddr;
    uint64_t dataSize;
    uint32_t taskId;
    uint32_t aicpu_task_id;
    uint16_t streamId;
    uint16_t planeID;
    uint16_t npuDevId;
    uint16_t dpuDevId;
    uint8_t opType;        /* 0 sum, 1 mul, 2 max, 3 min */
    uint8_t dataType;
    uint8_t linkType;      /* 0 on chip, 1 HCCS, 2 PCIe, 3 RoCE */
    uint8_t transportType; /* 0 SDMA, 1 RDMA, 2 local */
    uint8_t rdmaType;
    uint8_t role;          /* 0 destination, 1 source */
    uint8_t workFlowMode;
    uint8_t reserves[1];
#ifdef __cplusplus
    MsprofDpuHcclTrack()
        : itemId(0), cclTag(0), groupName(0), localRank(0), remoteRank(0), rankSize(0), stage(0),
          notifyID(0), timeStamp(0), durationEstimated(0), srcAddr(0xFFFFFFFF), dstAddr(0xFFFFFFFF),
          dataSize(0xFFFFFFFF), taskId(0), aicpu_task_id(0xFFFFFFFF), streamId(0), planeID(0),
          npuDevId(0xFFFF), dpuDevId(0xFFFF), opType(0xFF), dataType(0xFF), linkType(0xFF),
          transportType(0xFF), rdmaType(0xFF), role(0xFF), workFlowMode(0), reserves{0} {}
#endif
};

struct MsprofStreamExpandSpecInfo {
    uint8_t expandStatus;
    uint8_t reserve1;
    uint16_t reserve2;
};

/* In C++ the magic number (and an event's flag) is preset. */
#ifdef __cplusplus
#define NPUD_MSPROF_MAGIC = MSPROF_REPORT_DATA_MAGIC_NUM
#define NPUD_MSPROF_EVENT_FLAG = MSPROF_EVENT_FLAG
#else
#define NPUD_MSPROF_MAGIC
#define NPUD_MSPROF_EVENT_FLAG
#endif

/* MsprofReportApi: a timed call. */
struct MsprofApi {
    uint16_t magicNumber NPUD_MSPROF_MAGIC;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t reserve;
    uint64_t beginTime;
    uint64_t endTime;
    uint64_t itemId;
};

/* MsprofReportEvent: a point in time (requestId 0xFFFF: a single event). */
struct MsprofEvent {
    uint16_t magicNumber NPUD_MSPROF_MAGIC;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t requestId;
    uint64_t timeStamp;
    uint64_t eventFlag NPUD_MSPROF_EVENT_FLAG;
    uint64_t itemId;
};

/* MsprofReportCompactInfo: a small fixed-size record. */
struct MsprofCompactInfo {
    uint16_t magicNumber NPUD_MSPROF_MAGIC;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t dataLen;
    uint64_t timeStamp;
    union {
        uint8_t info[MSPROF_COMPACT_INFO_DATA_LENGTH];
        struct MsprofRuntimeTrack runtimeTrack;
        struct MsprofRuntimeTrackV2 runtimeTrackV2;
        struct MsprofCaptureStreamInfo captureStreamInfo;
        struct MsprofCaptureStreamInfoV2 captureStreamInfoV2;
        struct MsprofStreamSqInfo streamSqInfo;
        struct MsprofNodeBasicInfo nodeBasicInfo;
        struct MsprofHCCLOPInfo hcclopInfo;
        struct MsprofDpuTrack dpuTack;
        struct MsprofStreamExpandSpecInfo streamExpandInfo;
        struct MsprofMemcpyInfo memcpyInfo;
        struct MsprofMemsetInfo memsetInfo;
        struct MsprofMemMngInfo memMngInfo;
    } data;
};

/* MsprofReportAdditionalInfo: a larger record of its type's format. */
struct MsprofAdditionalInfo {
    uint16_t magicNumber NPUD_MSPROF_MAGIC;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t dataLen;
    uint64_t timeStamp;
    uint8_t data[MSPROF_ADDTIONAL_INFO_DATA_LENGTH];
};

/* A record of variable length (data follows the header). */
struct MsprofShapeInfo {
    uint16_t magicNumber NPUD_MSPROF_MAGIC;
    uint16_t level;
    uint32_t type;
    uint32_t threadId;
    uint32_t dataLen;
    uint64_t timeStamp;
    uint8_t data[0];
};

#undef NPUD_MSPROF_MAGIC
#undef NPUD_MSPROF_EVENT_FLAG

/* Called by the profiling library to start and stop a module's collection:
 * type MsprofCommandHandleType, data a MsprofCommandHandle. */
typedef int32_t (*ProfCommandHandle)(uint32_t type, void* data, uint32_t len);
typedef int32_t (*MsprofReporterCallback)(uint32_t moduleId, uint32_t type, void* data, uint32_t len);

/* Collection control. */
MSVP_PROF_API int32_t MsprofInit(uint32_t dataType, void* data, uint32_t dataLen);
MSVP_PROF_API int32_t MsprofFinalize(void);
MSVP_PROF_API int32_t MsprofRegisterCallback(uint32_t moduleId, ProfCommandHandle handle);

/* Reports; nonPersistantFlag nonzero: the data is copied before returning. */
MSVP_PROF_API int32_t MsprofReportApi(uint32_t nonPersistantFlag, const struct MsprofApi* api);
MSVP_PROF_API int32_t MsprofReportEvent(uint32_t nonPersistantFlag, const struct MsprofEvent* event);
MSVP_PROF_API int32_t MsprofReportCompactInfo(uint32_t nonPersistantFlag, const VOID_PTR data,
                                              uint32_t length);
MSVP_PROF_API int32_t MsprofReportAdditionalInfo(uint32_t nonPersistantFlag, const VOID_PTR data,
                                                 uint32_t length);
MSVP_PROF_API int32_t MsprofReportBatchAdditionalInfo(uint32_t nonPersistantFlag,
                                                      const VOID_PTR data, uint32_t length);
MSVP_PROF_API size_t MsprofGetBatchReportMaxSize(uint32_t type);

/* Names and formats of report types, for the exported tables. */
MSVP_PROF_API int32_t MsprofRegTypeInfo(uint16_t level, uint32_t typeId, const char* typeName);
MSVP_PROF_API int32_t MsprofRegDataFormat(uint16_t level, uint32_t typeId, const char* dataFormat);

/* Strings as 64-bit ids in records, and back. */
MSVP_PROF_API uint64_t MsprofGetHashId(const char* hashInfo, size_t length);
MSVP_PROF_API uint64_t MsprofStr2Id(const char* hashInfo, size_t length);
MSVP_PROF_API char* MsprofId2Str(const uint64_t Id);

/* The directory of the running collection. */
MSVP_PROF_API char* MsprofGetPath(void);

/* A model id stands for a model on a device (model loading registers it). */
MSVP_PROF_API int32_t MsprofSetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                    const uint32_t deviceId);
MSVP_PROF_API int32_t MsprofUnsetDeviceIdByGeModelIdx(const uint32_t geModelIdx,
                                                      const uint32_t deviceId);

/* The time stamp records carry. */
MSVP_PROF_API uint64_t MsprofSysCycleTime(void);

/* Whether operator `op` (type MsprofOpSwitchType) is selected for collection. */
MSVP_PROF_API bool MsprofCheckOpSwitch(uint32_t type, const char* op, size_t len);

#ifdef __cplusplus
}
#endif

#endif /* NPUD_PROFILING_APROF_PUB_H_ */
