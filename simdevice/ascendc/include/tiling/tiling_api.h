// tiling/tiling_api.h: the host side of the advanced Matmul API: MultiCoreMatmulTiling
// fills the TCubeTiling a Matmul kernel runs with.
//
// Kernels written for CANN hard-code how the tiling splits the work (which axis the
// cores divide, how many base blocks a core iterates), so GetTiling makes CANN's
// choices for the 910B as its documented algorithm does, in outline:
//   * cores: candidate splits (mDim, nDim), nDim outer and mDim inner ascending,
//     mDim * nDim <= SetDim's count (an operand at TSCM, in L1 whole on every core,
//     keeps its axis unsplit). A candidate replaces the chosen one until a split
//     gives each of more than one core at least 16 blocks of 16 columns; from then
//     on only a split that loads less (A and B per core, in 16 x 32-byte blocks)
//     replaces it. singleCore* = the shape over its cores, rounded up.
//   * base blocks (unless SetFixSplit): the largest baseM x baseN (16-multiples)
//     whose float results fit L0C (128 KiB), as square as possible, the longer side
//     towards the longer single-core side; baseK so that baseM x baseK and baseN x
//     baseK each fill at most half of L0A / L0B (double buffered).
//   * L1: the whole single-core K at once (stepKa = stepKb = singleCoreK / baseK)
//     and as many base blocks of M and N (stepM, stepN) as the single-core shape
//     has, halved (M and N first, then K) while A's and B's blocks (and the bias
//     row) exceed L1.
// The result is checked against asc-devkit's matmul examples; other shapes get a
// valid tiling by the same rules, not necessarily CANN's own numbers.
#ifndef NPUD_TILING_TILING_API_H_
#define NPUD_TILING_TILING_API_H_

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <iostream>  // CANN's tiling headers bring it; host tiling code relies on it

#include "kernel_tiling/kernel_tiling.h"
#include "register/tilingdata_base.h"
#include "tiling/batch_group_norm_tiling.h"
#include "tiling/gamma_gelu_tmp_size.h"
#include "tiling/normalization_tiling.h"
#include "tiling/pad_tiling.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/quant_tiling.h"
#include "tiling/softmax_flash_tiling.h"
#include "tiling/softmax_tiling.h"
#include "tiling/vector_tmp_size.h"

namespace optiling {

// The host's TCubeTiling as CANN's tiling data classes present it: a setter and a
// getter per field, and the bytes the kernel's TCubeTiling is copied from.
class TCubeTiling {
 public:
#define NPUD_TCUBE_TILING_ACCESSORS(name)                \
  void set_##name(int32_t value) { data_.name = value; } \
  int32_t get_##name() const { return data_.name; }
  NPUD_TCUBE_TILING_FIELDS(NPUD_TCUBE_TILING_ACCESSORS)
#undef NPUD_TCUBE_TILING_ACCESSORS

  size_t GetDataSize() const { return sizeof(data_); }
  // Writes the tiling's bytes to `buffer` (of `capacity` bytes; nothing if it is
  // too small, as CANN's does).
  void SaveToBuffer(void* buffer, size_t capacity) const {
    if (buffer != nullptr && capacity >= sizeof(data_)) std::memcpy(buffer, &data_, sizeof(data_));
  }

  AscendC::tiling::TCubeTiling& data() { return data_; }
  const AscendC::tiling::TCubeTiling& data() const { return data_; }

 private:
  AscendC::tiling::TCubeTiling data_;
};

}  // namespace optiling

namespace matmul_tiling {

enum class DataType : int32_t {
  DT_FLOAT = 0,
  DT_FLOAT16 = 1,
  DT_INT8 = 2,
  DT_INT32 = 3,
  DT_UINT8 = 4,
  DT_INT16 = 6,
  DT_UINT16 = 7,
  DT_UINT32 = 8,
  DT_INT64 = 9,
  DT_UINT64 = 10,
  DT_DOUBLE = 11,
  DT_BOOL = 12,
  DT_BF16 = 27,
  DT_INT4 = 29,
  DT_BFLOAT16 = 33,
  DT_MAX = 40,
};

enum class TPosition : int32_t {
  GM = 0,
  A1,
  A2,
  B1,
  B2,
  C1,
  C2,
  CO1,
  CO2,
  VECIN,
  VECOUT,
  VECCALC,
  SPM,
  TSCM,
  MAX,
  LCM = VECCALC,
  SHM = SPM,
};

enum class CubeFormat : int32_t {
  ND = 0,
  NZ,
  ZN,
  ZZ,
  NN,
  ND_ALIGN,
  SCALAR,
  VECTOR,
  COLUMN_MAJOR = 8,
  ROW_MAJOR = ND,
};

enum class MatrixTraverse : int32_t { NOSET = 0, FIRSTM = 1, FIRSTN = 2 };
enum class ScheduleType : int32_t { INNER_PRODUCT = 0, OUTER_PRODUCT, N_BUFFER_33 };
enum class DequantType : int32_t { SCALAR = 0, TENSOR = 1 };

// SetMatmulConfigParams' settings; of them GetTiling reads the traversal (the others
// choose how the NPU moves data).
struct MatmulConfigParams {
  int32_t mmConfigType;
  bool enableL1CacheUB;
  ScheduleType scheduleType;
  MatrixTraverse traverse;
  bool enVecND2NZ;
  MatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                     ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                     MatrixTraverse traverseIn = MatrixTraverse::NOSET, bool enVecND2NZIn = false)
      : mmConfigType(mmConfigTypeIn),
        enableL1CacheUB(enableL1CacheUBIn),
        scheduleType(scheduleTypeIn),
        traverse(traverseIn),
        enVecND2NZ(enVecND2NZIn) {}
};

inline int32_t SizeOf(DataType type) {
  switch (type) {
    case DataType::DT_FLOAT:
    case DataType::DT_INT32:
    case DataType::DT_UINT32:
      return 4;
    case DataType::DT_INT8:
    case DataType::DT_UINT8:
    case DataType::DT_BOOL:
    case DataType::DT_INT4:
      return 1;
    case DataType::DT_INT64:
    case DataType::DT_UINT64:
    case DataType::DT_DOUBLE:
      return 8;
    default:
      return 2;
  }
}

class MatmulApiTilingBase {
 public:
  MatmulApiTilingBase() = default;
  explicit MatmulApiTilingBase(const platform_ascendc::PlatformAscendC& platform) {
    uint64_t size = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L1, size);
    l1_size_ = static_cast<int32_t>(size);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::L0_C, size);
    l0c_size_ = static_cast<int32_t>(size);
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, size);
    ub_size_ = static_cast<int32_t>(size);
  }
  virtual ~MatmulApiTilingBase() = default;

  int32_t SetAType(TPosition pos, CubeFormat format, DataType type, bool is_trans = false) {
    a_ = {pos, format, type, is_trans};
    return 0;
  }
  int32_t SetBType(TPosition pos, CubeFormat format, DataType type, bool is_trans = false) {
    b_ = {pos, format, type, is_trans};
    return 0;
  }
  int32_t SetCType(TPosition pos, CubeFormat format, DataType type) {
    c_ = {pos, format, type, false};
    return 0;
  }
  int32_t SetBiasType(TPosition pos, CubeFormat format, DataType type) {
    bias_ = {pos, format, type, false};
    return 0;
  }
  virtual int32_t SetShape(int32_t m, int32_t n, int32_t k) = 0;
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t k) { return SetOrgShape(m, n, k, k); }
  int32_t SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb) {
    if (m <= 0 || n <= 0 || ka <= 0 || kb <= 0) return -1;
    org_m_ = m;
    org_n_ = n;
    org_ka_ = ka;
    org_kb_ = kb;
    return 0;
  }
  int32_t EnableBias(bool enable = false) {
    bias_enabled_ = enable;
    return 0;
  }
  int32_t SetBias(bool enable = false) { return EnableBias(enable); }
  int32_t SetFixSplit(int32_t base_m = -1, int32_t base_n = -1, int32_t base_k = -1) {
    const int32_t k_align = 32 / SizeOf(a_.type);
    if (base_m == 0 || base_n == 0 || base_k == 0 || (base_m > 0 && base_m % 16 != 0) ||
        (base_n > 0 && base_n % 16 != 0) || (base_k > 0 && base_k % k_align != 0)) {
      return -1;
    }
    fix_m_ = base_m;
    fix_n_ = base_n;
    fix_k_ = base_k;
    return 0;
  }
  int32_t SetBufferSpace(int32_t l1 = -1, int32_t l0c = -1, int32_t ub = -1, int32_t bt = -1) {
    static_cast<void>(bt);
    if ((l1 > l1_size_) || (l0c > l0c_size_) || (ub > ub_size_)) return -1;
    if (l1 >= 0) l1_size_ = l1 / 32 * 32;
    if (l0c >= 0) l0c_size_ = l0c / 32 * 32;
    if (ub >= 0) ub_size_ = ub / 32 * 32;
    return 0;
  }
  int32_t SetTraverse(MatrixTraverse traverse) {
    traverse_ = traverse;
    return 0;
  }
  void SetMatmulConfigParams(const MatmulConfigParams& params) {
    if (params.traverse != MatrixTraverse::NOSET) traverse_ = params.traverse;
  }
  void SetMatmulConfigParams(int32_t mmConfigTypeIn = 1, bool enableL1CacheUBIn = false,
                             ScheduleType scheduleTypeIn = ScheduleType::INNER_PRODUCT,
                             MatrixTraverse traverseIn = MatrixTraverse::NOSET,
                             bool enVecND2NZIn = false) {
    SetMatmulConfigParams(MatmulConfigParams(mmConfigTypeIn, enableL1CacheUBIn, scheduleTypeIn,
                                             traverseIn, enVecND2NZIn));
  }
  // Batch layouts (lib/matmul/batch_layout.h): the axes of A, B and C, copied into the
  // tiling's *LayoutInfo* fields, and the most batches one IterateBatch computes.
  int32_t SetALayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    a_layout_ = {b, s, n, g, d};
    return 0;
  }
  int32_t SetBLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    b_layout_ = {b, s, n, g, d};
    return 0;
  }
  int32_t SetCLayout(int32_t b, int32_t s, int32_t n, int32_t g, int32_t d) {
    c_layout_ = {b, s, n, g, d};
    return 0;
  }
  int32_t SetBatchNum(int32_t batch) {
    if (batch <= 0) return -1;
    batch_num_ = batch;
    return 0;
  }
  // NORMAL layout: batchA M x K matrices times batchB K x N ones.
  int32_t SetBatchInfoForNormal(int32_t batchA, int32_t batchB, int32_t m, int32_t n, int32_t k) {
    if (batchA <= 0 || batchB <= 0 || m <= 0 || n <= 0 || k <= 0) return -1;
    a_layout_ = {batchA, m, 1, 1, k};
    b_layout_ = {batchB, k, 1, 1, n};
    c_layout_ = {std::max(batchA, batchB), m, 1, 1, n};
    if (batch_num_ <= 0) batch_num_ = std::max(batchA, batchB);
    return 0;
  }
  // Which dequantisation the C conversion uses, whether A is sparse, whether the cores
  // split K: they change the NPU's data movement, not the tiling's blocks here.
  int32_t SetDequantType(DequantType type) {
    dequant_type_ = type;
    return 0;
  }
  int32_t SetSparse(bool isSparseIn = false) {
    sparse_ = isSparseIn;
    return 0;
  }
  void EnableMultiCoreSplitK(bool flag) { split_k_ = flag; }
  void SetSplitK(bool flag) { split_k_ = flag; }
  int32_t SetDoubleBuffer(bool /*a*/, bool /*b*/, bool /*c*/, bool /*bias*/,
                          bool /*transND2NZ*/ = true, bool /*transNZ2ND*/ = true) {
    return 0;
  }
  virtual int64_t GetTiling(AscendC::tiling::TCubeTiling& tiling) = 0;
  int64_t GetTiling(optiling::TCubeTiling& tiling) { return GetTiling(tiling.data()); }

 protected:
  struct Operand {
    TPosition pos = TPosition::GM;
    CubeFormat format = CubeFormat::ND;
    DataType type = DataType::DT_FLOAT16;
    bool is_trans = false;
  };
  Operand a_, b_, c_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false},
      bias_{TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT, false};
  int32_t org_m_ = -1, org_n_ = -1, org_ka_ = -1, org_kb_ = -1;
  int32_t fix_m_ = -1, fix_n_ = -1, fix_k_ = -1;
  bool bias_enabled_ = false;
  int32_t l1_size_ = 524288 - 256, l0c_size_ = 131072, ub_size_ = 196608 - 256;
  MatrixTraverse traverse_ = MatrixTraverse::NOSET;
  struct LayoutAxes {
    int32_t b = 0, s = 0, n = 0, g = 0, d = 0;
  };
  LayoutAxes a_layout_, b_layout_, c_layout_;
  int32_t batch_num_ = 0;
  DequantType dequant_type_ = DequantType::SCALAR;
  bool sparse_ = false;
  bool split_k_ = false;

  // The batch fields of a tiling.
  void FillBatch(AscendC::tiling::TCubeTiling& t) const {
    t.ALayoutInfoB = a_layout_.b;
    t.ALayoutInfoS = a_layout_.s;
    t.ALayoutInfoN = a_layout_.n;
    t.ALayoutInfoG = a_layout_.g;
    t.ALayoutInfoD = a_layout_.d;
    t.BLayoutInfoB = b_layout_.b;
    t.BLayoutInfoS = b_layout_.s;
    t.BLayoutInfoN = b_layout_.n;
    t.BLayoutInfoG = b_layout_.g;
    t.BLayoutInfoD = b_layout_.d;
    t.CLayoutInfoB = c_layout_.b;
    t.CLayoutInfoS1 = c_layout_.s;
    t.CLayoutInfoN = c_layout_.n;
    t.CLayoutInfoG = c_layout_.g;
    t.CLayoutInfoS2 = c_layout_.d;
    t.BatchNum = batch_num_;
  }
};

class MultiCoreMatmulTiling : public MatmulApiTilingBase {
 public:
  MultiCoreMatmulTiling() = default;
  explicit MultiCoreMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
      : MatmulApiTilingBase(platform) {}

  int32_t SetDim(int32_t dim) {
    if (dim <= 0) return -1;
    dim_ = dim;
    return 0;
  }
  // -1 (or any value below 1) takes that dimension of the original shape.
  int32_t SetShape(int32_t m, int32_t n, int32_t k) override {
    m_ = m;
    n_ = n;
    k_ = k;
    if (org_m_ < 0 && m > 0 && n > 0 && k > 0) SetOrgShape(m, n, k);
    return 0;
  }
  // The single-core shapes of the last GetTiling.
  int32_t GetSingleShape(int32_t& m, int32_t& n, int32_t& k) const {
    m = got_single_m_;
    n = got_single_n_;
    k = got_single_k_;
    return got_single_m_ > 0 ? 0 : -1;
  }
  int32_t SetSingleShape(int32_t m = -1, int32_t n = -1, int32_t k = -1) {
    single_m_ = m;
    single_n_ = n;
    single_k_ = k;
    return 0;
  }

  using MatmulApiTilingBase::GetTiling;
  int64_t GetTiling(AscendC::tiling::TCubeTiling& t) override {
    if (org_m_ <= 0) return -1;
    if (m_ <= 0) m_ = org_m_;
    if (n_ <= 0) n_ = org_n_;
    if (k_ <= 0) k_ = org_ka_;
    if (m_ <= 0 || n_ <= 0 || k_ <= 0) return -1;
    const int32_t size_a = SizeOf(a_.type), size_b = SizeOf(b_.type);
    const int32_t c0 = 32 / size_a;
    const int32_t m_blocks = Ceil(m_, 16), n_blocks = Ceil(n_, 16), k_blocks = Ceil(k_, c0);

    // Cores.
    int32_t m_dim = 1, n_dim = 1;
    if (single_m_ > 0 && single_n_ > 0) {
      m_dim = Ceil(m_, single_m_);
      n_dim = Ceil(n_, single_n_);
    } else {
      bool big_package = false;
      int64_t best_load = -1;
      // An operand the kernel puts in L1 itself (TSCM) is there whole on every core:
      // its axis is not split.
      const int32_t max_md = a_.pos == TPosition::TSCM ? 1 : std::min(dim_, m_blocks);
      const int32_t max_nd = b_.pos == TPosition::TSCM ? 1 : std::min(dim_, n_blocks);
      for (int32_t nd = 1; nd <= max_nd; ++nd) {
        for (int32_t md = 1; md <= max_md && md * nd <= dim_; ++md) {
          const int64_t load =
              int64_t{Ceil(m_blocks, md)} * k_blocks + int64_t{Ceil(n_blocks, nd)} * k_blocks;
          if (big_package && !(load < best_load)) continue;
          m_dim = md;
          n_dim = nd;
          best_load = load;
          big_package = Ceil(n_blocks, nd) >= 16 && md * nd > 1;
        }
      }
    }
    const int32_t single_m = single_m_ > 0 ? single_m_ : Ceil(m_blocks, m_dim) * 16;
    const int32_t single_n = single_n_ > 0 ? single_n_ : Ceil(n_blocks, n_dim) * 16;
    const int32_t single_k = single_k_ > 0 ? single_k_ : k_;
    const int32_t sm = std::min(single_m, m_), sn = std::min(single_n, n_);

    // Base blocks.
    int32_t base_m = fix_m_, base_n = fix_n_, base_k = fix_k_;
    if (base_m <= 0 || base_n <= 0) {
      const int32_t max_mn = l0c_size_ / (16 * 16 * 4);  // result blocks L0C holds
      const int32_t sm_blocks = Ceil(sm, 16), sn_blocks = Ceil(sn, 16);
      int32_t best_m = 1, best_n = 1;
      for (int32_t mb = 1; mb <= sm_blocks; ++mb) {
        const int32_t nb = std::min(sn_blocks, max_mn / mb);
        if (nb <= 0) break;
        const int64_t area = int64_t{mb} * nb, best_area = int64_t{best_m} * best_n;
        const bool squarer = std::abs(mb - nb) < std::abs(best_m - best_n) ||
                             (std::abs(mb - nb) == std::abs(best_m - best_n) &&
                              (sn_blocks >= sm_blocks ? nb > best_n : mb > best_m));
        if (area > best_area || (area == best_area && squarer)) {
          best_m = mb;
          best_n = nb;
        }
      }
      if (base_m <= 0) base_m = best_m * 16;
      if (base_n <= 0) base_n = best_n * 16;
    }
    if (base_k <= 0) {
      // L0A and L0B are double buffered: a base block may fill half of one (64 blocks).
      const int32_t widest = std::max(base_m, base_n) / 16;
      const int32_t k_l0 = std::max(1, std::min(Ceil(single_k, c0), 64 / widest));
      base_k = k_l0 * c0;
    }

    // L1.
    int32_t step_k = Ceil(single_k, base_k);
    int32_t step_m = Ceil(sm, base_m), step_n = Ceil(sn, base_n);
    const int32_t bias_bytes = bias_enabled_ ? base_n * SizeOf(bias_.type) : 0;
    const auto l1_used = [&]() {
      return int64_t{step_k} * step_m * base_m * base_k * size_a +
             int64_t{step_k} * step_n * base_n * base_k * size_b + bias_bytes;
    };
    while (l1_used() > l1_size_ && (step_m > 1 || step_n > 1 || step_k > 1)) {
      if (step_m > 1 && step_m >= step_n) {
        step_m = Ceil(step_m, 2);
      } else if (step_n > 1) {
        step_n = Ceil(step_n, 2);
      } else {
        step_k = Ceil(step_k, 2);
      }
    }
    if (l1_used() > l1_size_) return -1;

    t = AscendC::tiling::TCubeTiling{};
    // The cores the single-core shapes cover (fewer than m_dim * n_dim when rounding
    // to whole blocks leaves a core nothing).
    t.usedCoreNum = Ceil(m_, single_m) * Ceil(n_, single_n);
    t.M = org_m_;
    t.N = org_n_;
    t.Ka = org_ka_;
    t.Kb = org_kb_;
    t.singleCoreM = single_m;
    t.singleCoreN = single_n;
    t.singleCoreK = single_k;
    t.baseM = base_m;
    t.baseN = base_n;
    t.baseK = base_k;
    t.depthA1 = step_k * step_m;
    t.depthB1 = step_k * step_n;
    t.stepM = step_m;
    t.stepN = step_n;
    t.stepKa = step_k;
    t.stepKb = step_k;
    t.isBias = bias_enabled_ ? 1 : 0;
    const int32_t m_loop = Ceil(sm, base_m), n_loop = Ceil(sn, base_n);
    t.iterateOrder = traverse_ == MatrixTraverse::FIRSTN                       ? 1
                     : traverse_ == MatrixTraverse::FIRSTM                     ? 0
                     : (step_m + step_n * m_loop) < (step_n + step_m * n_loop) ? 1
                                                                               : 0;
    t.shareL1Size = static_cast<int32_t>(l1_used());
    t.shareL0CSize = base_m * base_n * 4;
    t.batchM = t.batchN = t.singleBatchM = t.singleBatchN = 1;
    t.dbL0A = 2;
    t.dbL0B = 2;
    t.dbL0C = 1;
    FillBatch(t);
    got_single_m_ = single_m;
    got_single_n_ = single_n;
    got_single_k_ = single_k;
    return 0;
  }

 private:
  static int32_t Ceil(int32_t a, int32_t b) { return (a + b - 1) / b; }

  int32_t dim_ = 1;
  int32_t m_ = -1, n_ = -1, k_ = -1;
  int32_t single_m_ = -1, single_n_ = -1, single_k_ = -1;
  int32_t got_single_m_ = -1, got_single_n_ = -1, got_single_k_ = -1;
};

using MatmulApiTiling = MultiCoreMatmulTiling;

// Batch matmul's tiling: the single-core shape is one batch's whole matrix (the kernels
// split the batches across cores themselves), so it is MultiCoreMatmulTiling on one core.
class BatchMatmulTiling : public MultiCoreMatmulTiling {
 public:
  BatchMatmulTiling() = default;
  explicit BatchMatmulTiling(const platform_ascendc::PlatformAscendC& platform)
      : MultiCoreMatmulTiling(platform) {}
};

}  // namespace matmul_tiling

#endif  // NPUD_TILING_TILING_API_H_
