// lib/matmul/matmul_config.h: how a Matmul object is configured at compile time, as
// CANN 9 spells it — MatmulConfig and its predefined values (CFG_NORM, CFG_MDL,
// CFG_IBSHARE_NORM, ...), the Get*Config builders, GetMMConfig's parameter groups, and
// the constant tiling of GetMatmulApiTiling.
//
// npud's Matmul (lib/matmul_intf.h) computes every configuration the same way on the
// CPU, so most fields only select how the NPU would move data; the ones that change
// results are read there (isPartialOutput; the basic block sizes of a constant
// tiling). The field names, types and defaults are CANN's, so that kernels that
// build configurations field by field compile unchanged.
#ifndef NPUD_LIB_MATMUL_MATMUL_CONFIG_H_
#define NPUD_LIB_MATMUL_MATMUL_CONFIG_H_

#include <cstdint>

// Layouts of matrices (global, as upstream has it).
enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

// CANN declares the configuration types and values outside namespace AscendC;
// AscendC names them too.

enum class LayoutMode : int32_t { NONE = 0, BSNGD, SBNGD, BNGS1S2, NORMAL };
enum class BatchMode : int32_t {
  NONE = 0,
  BATCH_LESS_THAN_L1,
  BATCH_LARGE_THAN_L1,
  SINGLE_LARGE_THAN_L1
};
enum BatchOutMode : int32_t { SINGLE_BATCH = 0, MULTI_BATCH, DYNAMIC };
enum class IterateOrder : int32_t { ORDER_M = 0, ORDER_N, UNDEF };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
enum IterateMode : uint8_t {
  ITERATE_MODE_NORMAL = 0b00000001,
  ITERATE_MODE_ALL = 0b00000010,
  ITERATE_MODE_BATCH = 0b00000100,
  ITERATE_MODE_N_BATCH = 0b00001000,
  ITERATE_MODE_DEFAULT = 0b11111111,
};
enum class DecompressionMode : int32_t {
  DECOMP_NONE = 0,
  DECOMP_1bitTo8bit,
  DECOMP_2bitTo8bit,
  DECOMP_4bitTo8bit
};

constexpr uint32_t SHARED_CO1_BUFFER_SIZE = 64 * 1024;

struct MatmulConfig {
  bool doNorm;
  bool doBasicBlock;
  bool doMultiDataLoad;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
  bool intrinsicsCheck;
  bool isNBatch;
  bool enVecND2NZ;
  bool doSpecialBasicBlock;
  uint32_t doMTE2Preload;
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t stepM;
  uint32_t stepN;
  uint32_t baseMN;
  uint32_t singleCoreMN;
  bool enUnitFlag = true;
  bool isPerTensor;
  bool hasAntiQuantOffset;
  bool doIBShareNorm;
  bool doSpecialMDL;
  bool enableInit = true;
  BatchMode batchMode;
  bool enableEnd = true;
  bool enableGetTensorC = true;
  bool enableSetOrgShape = true;
  bool enableSetBias = true;
  bool enableSetTail = true;
  bool enableQuantVector = true;
  bool enableSetDefineData = true;
  uint8_t iterateMode = IterateMode::ITERATE_MODE_DEFAULT;
  bool enableReuse = true;
  bool enableUBReuse;
  bool enableL1CacheUB;
  bool intraBlockPartSum = false;
  IterateOrder iterateOrder{IterateOrder::UNDEF};
  ScheduleType scheduleType;
  bool enableDoubleCache;
  bool isBiasBatch = true;
  bool enableStaticPadZeros = false;
  bool isPartialOutput = false;
  bool enableMixDualMaster = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool isCO1Shared = false;
  uint32_t sharedCO1BufferSize = SHARED_CO1_BUFFER_SIZE;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};

// The templates the builders start from.
enum class MatmulConfigMode { CONFIG_NORM, CONFIG_MDL, CONFIG_SPECIALMDL, CONFIG_IBSHARE };

struct MatmulShapeParams {
  uint32_t singleCoreM;
  uint32_t singleCoreN;
  uint32_t singleCoreK;
  uint32_t basicM;
  uint32_t basicN;
  uint32_t basicK;
};
struct MatmulQuantParams {
  bool isPerTensor;
  bool hasAntiQuantOffset;
};
struct MatmulBatchParams {
  bool isNBatch;
  BatchMode batchMode;
  bool isBiasBatch = true;
  BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH;
};
struct MatmulFuncParams {
  bool intrinsicsCheck;
  bool enVecND2NZ;
  bool enableDoubleCache;
  bool enableL1CacheUB;
  uint32_t doMTE2Preload;
  IterateOrder iterateOrder;
  ScheduleType scheduleType;
  bool enableReuse = true;
  bool enableUBReuse;
  bool isPartialOutput = false;
  bool isA2B2Shared = false;
  bool isEnableChannelSplit = false;
  bool enableKdimReorderLoad = false;
  bool enableL1BankConflictOptimise = false;
  bool enableRelu = false;
  DecompressionMode decompMode = DecompressionMode::DECOMP_NONE;
};
struct MatmulBiasParams {
  bool enableSetBias = true;
};

constexpr MatmulConfig GetNormalConfig(
    const bool intrinsicsLimit = false, const bool batchLoop = false, const bool isVecND2NZ = false,
    const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1, const bool isMsgReuse = true,
    const IterateOrder iterateOrder = IterateOrder::UNDEF,
    const ScheduleType scheduleType = ScheduleType::INNER_PRODUCT, const bool enUnitFlag = true,
    const bool enableMixDualMaster = false,
    const BatchOutMode bmmOutMode = BatchOutMode::SINGLE_BATCH) {
  MatmulConfig cfg{};
  cfg.doNorm = true;
  cfg.intrinsicsCheck = intrinsicsLimit;
  cfg.isNBatch = batchLoop;
  cfg.enVecND2NZ = isVecND2NZ;
  cfg.batchMode = bmmMode;
  cfg.enableReuse = isMsgReuse;
  cfg.iterateOrder = iterateOrder;
  cfg.scheduleType = scheduleType;
  cfg.enUnitFlag = enUnitFlag;
  cfg.enableMixDualMaster = enableMixDualMaster;
  cfg.bmmOutMode = bmmOutMode;
  return cfg;
}

constexpr MatmulConfig GetMDLConfig(const bool intrinsicsLimit = false,
                                    const bool batchLoop = false, const uint32_t doMTE2Preload = 0,
                                    const bool isVecND2NZ = false, bool isPerTensor = false,
                                    bool hasAntiQuantOffset = false, const bool enUnitFlag = false,
                                    const bool isMsgReuse = true, const bool enableUBReuse = true,
                                    const bool enableL1CacheUB = false,
                                    const bool enableMixDualMaster = false,
                                    const bool enableKdimReorderLoad = false) {
  MatmulConfig cfg{};
  cfg.doMultiDataLoad = true;
  cfg.intrinsicsCheck = intrinsicsLimit;
  cfg.isNBatch = batchLoop;
  cfg.doMTE2Preload = doMTE2Preload;
  cfg.enVecND2NZ = isVecND2NZ;
  cfg.isPerTensor = isPerTensor;
  cfg.hasAntiQuantOffset = hasAntiQuantOffset;
  cfg.enUnitFlag = enUnitFlag;
  cfg.enableReuse = isMsgReuse;
  cfg.enableUBReuse = enableUBReuse;
  cfg.enableL1CacheUB = enableL1CacheUB;
  cfg.enableMixDualMaster = enableMixDualMaster;
  cfg.enableKdimReorderLoad = enableKdimReorderLoad;
  cfg.batchMode = BatchMode::BATCH_LESS_THAN_L1;
  return cfg;
}

constexpr MatmulConfig GetSpecialMDLConfig(const bool intrinsicsLimit = false,
                                           const bool batchLoop = false,
                                           const uint32_t doMTE2Preload = 0,
                                           const bool isVecND2NZ = false, bool isPerTensor = false,
                                           bool hasAntiQuantOffset = false) {
  MatmulConfig cfg = GetMDLConfig(intrinsicsLimit, batchLoop, doMTE2Preload, isVecND2NZ,
                                  isPerTensor, hasAntiQuantOffset);
  cfg.doMultiDataLoad = false;
  cfg.doSpecialMDL = true;
  return cfg;
}

constexpr MatmulConfig GetIBShareNormConfig(const bool intrinsicsLimit = false,
                                            const bool batchLoop = false,
                                            const bool isVecND2NZ = false,
                                            const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1,
                                            const bool isDoubleCache = false,
                                            const bool enUnitFlag = true) {
  MatmulConfig cfg = GetNormalConfig(intrinsicsLimit, batchLoop, isVecND2NZ, bmmMode);
  cfg.doNorm = false;
  cfg.doIBShareNorm = true;
  cfg.enableDoubleCache = isDoubleCache;
  cfg.enUnitFlag = enUnitFlag;
  return cfg;
}

constexpr MatmulConfig GetBasicConfig(const uint32_t basicM, const uint32_t basicN,
                                      const uint32_t basicK, const bool intrinsicsLimit = false,
                                      const bool batchLoop = false,
                                      const BatchMode bmmMode = BatchMode::BATCH_LESS_THAN_L1) {
  MatmulConfig cfg = GetNormalConfig(intrinsicsLimit, batchLoop, false, bmmMode);
  cfg.doNorm = false;
  cfg.doBasicBlock = true;
  cfg.basicM = basicM;
  cfg.basicN = basicN;
  cfg.basicK = basicK;
  return cfg;
}

constexpr MatmulConfig CFG_NORM = GetNormalConfig();
constexpr MatmulConfig CFG_MDL = GetMDLConfig();
constexpr MatmulConfig CFG_IBSHARE_NORM = GetIBShareNormConfig();
constexpr MatmulConfig MM_CFG_BB = GetBasicConfig(128, 128, 128);

namespace npud_matmul_config {

// GetMMConfig's parameter groups, applied in the order given.
constexpr void Apply(MatmulConfig& cfg, const MatmulShapeParams& p) {
  cfg.singleCoreM = p.singleCoreM;
  cfg.singleCoreN = p.singleCoreN;
  cfg.singleCoreK = p.singleCoreK;
  cfg.basicM = p.basicM;
  cfg.basicN = p.basicN;
  cfg.basicK = p.basicK;
}
constexpr void Apply(MatmulConfig& cfg, const MatmulQuantParams& p) {
  cfg.isPerTensor = p.isPerTensor;
  cfg.hasAntiQuantOffset = p.hasAntiQuantOffset;
}
constexpr void Apply(MatmulConfig& cfg, const MatmulBatchParams& p) {
  cfg.isNBatch = p.isNBatch;
  cfg.batchMode = p.batchMode;
  cfg.isBiasBatch = p.isBiasBatch;
  cfg.bmmOutMode = p.bmmOutMode;
}
constexpr void Apply(MatmulConfig& cfg, const MatmulFuncParams& p) {
  cfg.intrinsicsCheck = p.intrinsicsCheck;
  cfg.enVecND2NZ = p.enVecND2NZ;
  cfg.enableDoubleCache = p.enableDoubleCache;
  cfg.enableL1CacheUB = p.enableL1CacheUB;
  cfg.doMTE2Preload = p.doMTE2Preload;
  cfg.iterateOrder = p.iterateOrder;
  cfg.scheduleType = p.scheduleType;
  cfg.enableReuse = p.enableReuse;
  cfg.enableUBReuse = p.enableUBReuse;
  cfg.isPartialOutput = p.isPartialOutput;
  cfg.isA2B2Shared = p.isA2B2Shared;
  cfg.isEnableChannelSplit = p.isEnableChannelSplit;
  cfg.enableKdimReorderLoad = p.enableKdimReorderLoad;
  cfg.enableL1BankConflictOptimise = p.enableL1BankConflictOptimise;
  cfg.enableRelu = p.enableRelu;
  cfg.decompMode = p.decompMode;
}
constexpr void Apply(MatmulConfig& cfg, const MatmulBiasParams& p) {
  cfg.enableSetBias = p.enableSetBias;
}

}  // namespace npud_matmul_config

// The template of `configMode` with each of `args` (the parameter groups above)
// applied.
template <MatmulConfigMode configMode, typename... ArgTypes>
constexpr MatmulConfig GetMMConfig(ArgTypes&&... args) {
  MatmulConfig cfg = configMode == MatmulConfigMode::CONFIG_MDL          ? GetMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_SPECIALMDL ? GetSpecialMDLConfig()
                     : configMode == MatmulConfigMode::CONFIG_IBSHARE    ? GetIBShareNormConfig()
                                                                         : GetNormalConfig();
  (npud_matmul_config::Apply(cfg, args), ...);
  return cfg;
}

// A tiling fixed at compile time (GetMatmulApiTiling): the configuration, and the
// base block and single-core shapes it gives. A Matmul whose configuration is one of
// these needs no TCubeTiling (REGIST_MATMUL_OBJ may pass nullptr); SetOrgShape and
// SetTail give the shapes the constant leaves open.
struct MatmulApiStaticTiling {
  MatmulConfig cfg;
  int32_t M = -1, N = -1, Ka = -1, Kb = -1;
  int32_t singleCoreM = -1, singleCoreN = -1, singleCoreK = -1;
  int32_t baseM = -1, baseN = -1, baseK = -1;
  int32_t depthA1 = -1, depthB1 = -1, stepM = -1, stepN = -1, stepKa = -1, stepKb = -1;
  int32_t isBias = -1, iterateOrder = -1, dbL0A = -1, dbL0B = -1, dbL0C = -1;
};

namespace AscendC {

using ::BatchMode;
using ::BatchOutMode;
using ::CFG_IBSHARE_NORM;
using ::CFG_MDL;
using ::CFG_NORM;
using ::DecompressionMode;
using ::GetBasicConfig;
using ::GetIBShareNormConfig;
using ::GetMDLConfig;
using ::GetMMConfig;
using ::GetNormalConfig;
using ::GetSpecialMDLConfig;
using ::IterateMode;
using ::IterateOrder;
using ::LayoutMode;
using ::MatmulApiStaticTiling;
using ::MatmulBatchParams;
using ::MatmulBiasParams;
using ::MatmulConfig;
using ::MatmulConfigMode;
using ::MatmulFuncParams;
using ::MatmulQuantParams;
using ::MatmulShapeParams;
using ::ScheduleType;

template <class A_TYPE, class B_TYPE, class C_TYPE, class BIAS_TYPE>
constexpr MatmulApiStaticTiling GetMatmulApiTiling(const MatmulConfig& mmCFG,
                                                   int32_t l1Size = 512 * 1024) {
  (void)l1Size;
  MatmulApiStaticTiling t{};
  t.cfg = mmCFG;
  if (mmCFG.singleCoreM > 0) t.singleCoreM = static_cast<int32_t>(mmCFG.singleCoreM);
  if (mmCFG.singleCoreN > 0) t.singleCoreN = static_cast<int32_t>(mmCFG.singleCoreN);
  if (mmCFG.singleCoreK > 0) t.singleCoreK = static_cast<int32_t>(mmCFG.singleCoreK);
  if (mmCFG.basicM > 0) t.baseM = static_cast<int32_t>(mmCFG.basicM);
  if (mmCFG.basicN > 0) t.baseN = static_cast<int32_t>(mmCFG.basicN);
  if (mmCFG.basicK > 0) t.baseK = static_cast<int32_t>(mmCFG.basicK);
  t.stepM = t.stepN = t.stepKa = t.stepKb = 1;
  t.depthA1 = t.depthB1 = 1;
  t.iterateOrder = 0;
  t.dbL0A = t.dbL0B = 2;
  t.dbL0C = 1;
  return t;
}

}  // namespace AscendC

#endif  // NPUD_LIB_MATMUL_MATMUL_CONFIG_H_
