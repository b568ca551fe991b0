/*
 * Dumps: operator data dumps (configured by the "dump" object of aclInit's
 * or aclmdlSetDump's JSON file), their delivery to a callback instead of
 * files, operator argument records (aclopStartDumpArgs) and the exception
 * dump directory with user-saved tensors (acldumpSaveExceptionInfo).
 *
 * With npud the operators that dump are those of its operator library
 * (aclnn*): after such an operator, the stream copies the dumped tensors
 * back and writes `<dump_path>/<YYYYmmddHHMMSS>/<device>/<op type>.<op
 * name>.<task id>.<stream id>.<microseconds>`: a little-endian uint64 N,
 * N bytes of CANN's DumpData protobuf (version "2.0"), then the inputs'
 * and the outputs' bytes. Files and callbacks are done when the stream has
 * been synchronized.
 *
 * Functions exported by libascend_dump.so (npud: the same library as
 * libacl_rt.so).
 */
#ifndef INC_EXTERNAL_ACL_ACL_DUMP_H_
#define INC_EXTERNAL_ACL_ACL_DUMP_H_

#include <stdint.h>

#include "acl/acl_base.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_DUMP_API __attribute__((visibility("default")))
#define ACL_DUMP_WEAK __attribute__((weak))

#define ACL_DUMP_MAX_FILE_PATH_LENGTH 4096

/* One piece of a dump file, as a callback receives it: `bufLen` bytes of
 * `fileName` at `offset` (-1: appended); the callback's length argument is
 * sizeof(acldumpChunk) + bufLen. */
typedef struct acldumpChunk {
  char fileName[ACL_DUMP_MAX_FILE_PATH_LENGTH];
  uint32_t bufLen;
  uint32_t isLastChunk;
  int64_t offset;
  int32_t flag;
#ifdef __cplusplus
  uint8_t dataBuf[0];
#else
  uint8_t dataBuf[];
#endif
} acldumpChunk;

/* Receives each piece of a dump (and its length); its answer is ignored. */
typedef int32_t (*acldumpMessageCallback)(const acldumpChunk* chunk, int32_t len);

/* Dumps go to messageCallback instead of files (flag must be 0). The first
 * registration stays until acldumpUnregCallback. */
ACL_DUMP_API aclError acldumpRegCallback(acldumpMessageCallback messageCallback, int32_t flag);
ACL_DUMP_API void acldumpUnregCallback();

#define ACL_OP_DUMP_OP_AICORE_ARGS 0x00000001U

/* While started, each operator shape records its description (a JSON
 * file) under `path`, which is created if missing. */
ACL_FUNC_VISIBILITY aclError aclopStartDumpArgs(uint32_t dumpType, const char* path);
ACL_FUNC_VISIBILITY aclError aclopStopDumpArgs(uint32_t dumpType);

typedef enum {
  AIC_ERR_BRIEF_DUMP = 1,
  AIC_ERR_NORM_DUMP,
  AIC_ERR_DETAIL_DUMP,
  DATA_DUMP,
  OVERFLOW_DUMP
} acldumpType;

/* DATA_DUMP / OVERFLOW_DUMP: "<dump_path>/<YYYYmmddHHMMSS>/" of the last
 * data dump configured, or NULL; the AIC_ERR kinds: the exception
 * directory's extra-info/data-dump, created, as an absolute path. Owned by
 * the library. */
ACL_FUNC_VISIBILITY const char* acldumpGetPath(acldumpType dumpType);

#define ACL_DUMP_MAX_SHAPE_NUM 25

typedef enum {
  ACL_DUMP_TENSOR_INPUT = 0,
  ACL_DUMP_TENSOR_OUTPUT,
  ACL_DUMP_TENSOR_WORKSPACE
} acldumpTensorType;

typedef enum { ACL_DUMP_ADDR_PTR = 0, ACL_DUMP_ADDR_PTR_PTR, ACL_DUMP_ADDR_RAW } acldumpTensorAddressType;

typedef enum {
  ACL_DUMP_PLACEMENT_DEVICE = 0,
  ACL_DUMP_PLACEMENT_HOST,
  ACL_DUMP_PLACEMENT_END
} acldumpTensorPlacement;

typedef struct acldumpTensorInfo {
  acldumpTensorType type;
  size_t tensorSize;
  int32_t format;
  int32_t dataType;
  int64_t* tensorAddr;
  acldumpTensorAddressType addrType;
  acldumpTensorPlacement placement;
  uint32_t argsOffset;
  uint32_t shapeNum;
  uint32_t originShapeNum;
  uint64_t shape[ACL_DUMP_MAX_SHAPE_NUM];
  uint64_t originShape[ACL_DUMP_MAX_SHAPE_NUM];
} acldumpTensorInfo;

/* Saves the tensors (device memory, ACL_DUMP_ADDR_RAW) in the exception
 * dump directory as <fileName>.custom.<YYYYmmddHHMMSSmmm>; needs an
 * exception dump scene configured (else ACL_ERROR_FAILURE). */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpSaveExceptionInfo(const char* fileName,
                                                                    const char* userTag,
                                                                    const acldumpTensorInfo* tensors,
                                                                    size_t tensorCount);
/* The exception dump directory of the current device (created). */
ACL_DUMP_WEAK ACL_FUNC_VISIBILITY aclError acldumpGetExceptionInfoPath(char* path, size_t maxLen);

#ifdef __cplusplus
}
#endif

#endif /* INC_EXTERNAL_ACL_ACL_DUMP_H_ */
