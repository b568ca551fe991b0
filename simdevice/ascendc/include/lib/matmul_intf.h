// lib/matmul_intf.h: the advanced Matmul API (matmul::Matmul), on the CPU.
//
//   matmul::Matmul<MatmulType<GM, CubeFormat::ND, half>,      // A
//                  MatmulType<GM, CubeFormat::ND, half>,      // B
//                  MatmulType<GM, CubeFormat::ND, float>,     // C
//                  MatmulType<GM, CubeFormat::ND, float>> mm; // bias (default: C's)
//   REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
//   mm.SetTensorA(a); mm.SetTensorB(b); [mm.SetBias(bias);]
//   mm.IterateAll(c);            or   while (mm.Iterate()) mm.GetTensorC(ub_or_gm);
//   mm.End();
//
// A core computes its singleCoreM x singleCoreN part of C (the tiling's, see
// tiling/tiling_api.h) from the A rows and B columns its SetTensorA/B point at, with
// the full shapes of SetOrgShape (default: the tiling's M, N, Ka, Kb) as row
// strides: A is M x Ka (Ka x M transposed), B is Kb x N (N x Kb transposed), C rows
// N apart. Products accumulate in float (int32 for int8), plus the bias row when
// set, then convert to C's type. Iterate walks the core's baseM x baseN blocks in
// the tiling's iterateOrder (0: along N first within each row of blocks; 1: along M
// first); GetTensorC writes the current block to a local tensor as a dense
// baseM x baseN row-major block, or to GM at its place (dense with
// enSequentialWrite). enAtomic 1 adds to GM.
//
// In a mix kernel the vector cores drive the Matmul (as CANN's client / server
// split does), so on the group's cube core the object does nothing: Iterate is
// false at once. In a cube kernel the cube core computes.
//
// Not simulated (compile errors or failed checks): NZ formats, batch matmul,
// quantisation, partial sums, the asynchronous forms' waits (they run synchronously).
#ifndef NPUD_LIB_MATMUL_INTF_H_
#define NPUD_LIB_MATMUL_INTF_H_

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"

#define __kfc_workspace__

enum class CubeFormat : int32_t { ND = 0, NZ, ZN, ZZ, NN, ND_ALIGN, SCALAR, VECTOR };

namespace matmul {

// CANN's matmul namespace brings AscendC's names along (`using namespace matmul;`
// kernels call GetBlockIdx() unqualified).
using namespace AscendC;
using ::CubeFormat;

template <AscendC::TPosition kPosition, CubeFormat kFormat, class T, bool kTranspose = false>
struct MatmulType {
  static constexpr AscendC::TPosition pos = kPosition;
  static constexpr CubeFormat format = kFormat;
  using Type = T;
  static constexpr bool isTrans = kTranspose;
};

struct MatmulConfig {};
inline constexpr MatmulConfig CFG_NORM{};
inline constexpr MatmulConfig CFG_MDL{};

template <class A, class B, class C, class Bias = C, const MatmulConfig& kConfig = CFG_NORM>
class Matmul {
  static_assert(A::format == CubeFormat::ND && B::format == CubeFormat::ND &&
                    C::format == CubeFormat::ND,
                "npud: the CPU Matmul simulates ND (row-major) A, B and C only");
  using TA = typename A::Type;
  using TB = typename B::Type;
  using TC = typename C::Type;
  using TBias = typename Bias::Type;
  using Acc = std::conditional_t<std::is_integral_v<TA>, int64_t, float>;

 public:
  void Init(const AscendC::tiling::TCubeTiling* tiling, AscendC::TPipe* /*pipe*/ = nullptr) {
    tiling_ = *tiling;
    SetOrgShape(tiling_.M, tiling_.N, tiling_.Ka, tiling_.Kb);
  }
  void SetOrgShape(int32_t m, int32_t n, int32_t k) { SetOrgShape(m, n, k, k); }
  void SetOrgShape(int32_t m, int32_t n, int32_t ka, int32_t kb, int32_t kc = 0) {
    org_m_ = m;
    org_n_ = n;
    org_ka_ = ka;
    org_kb_ = kb;
    c_stride_ = kc > 0 ? kc : n;
  }
  void SetSingleShape(int32_t m, int32_t n, int32_t k) {
    tiling_.singleCoreM = m;
    tiling_.singleCoreN = n;
    tiling_.singleCoreK = k;
  }
  void SetTail(int32_t m = -1, int32_t n = -1, int32_t k = -1) {
    if (m > 0) tiling_.singleCoreM = m;
    if (n > 0) tiling_.singleCoreN = n;
    if (k > 0) tiling_.singleCoreK = k;
  }
  void SetTensorA(const AscendC::GlobalTensor<TA>& a, bool transpose = A::isTrans) {
    a_ = a.GetPhyAddr();
    trans_a_ = transpose;
  }
  void SetTensorB(const AscendC::GlobalTensor<TB>& b, bool transpose = B::isTrans) {
    b_ = b.GetPhyAddr();
    trans_b_ = transpose;
  }
  void SetBias(const AscendC::GlobalTensor<TBias>& bias) { bias_ = bias.GetPhyAddr(); }
  void DisableBias() { bias_ = nullptr; }

  template <bool kSync = true>
  bool Iterate(bool /*enPartialSum*/ = false) {
    if (Inert()) return false;
    const int32_t m_blocks = Ceil(tiling_.singleCoreM, tiling_.baseM);
    const int32_t n_blocks = Ceil(tiling_.singleCoreN, tiling_.baseN);
    if (!started_) {
      started_ = true;
      mb_ = nb_ = 0;
    } else if (tiling_.iterateOrder == 0) {
      if (++nb_ == n_blocks) {
        nb_ = 0;
        ++mb_;
      }
    } else {
      if (++mb_ == m_blocks) {
        mb_ = 0;
        ++nb_;
      }
    }
    if (mb_ >= m_blocks || nb_ >= n_blocks) {
      started_ = false;
      return false;
    }
    ComputeBlock();
    return true;
  }

  template <bool kSync = true>
  void GetTensorC(const AscendC::LocalTensor<TC>& c, uint8_t /*enAtomic*/ = 0,
                  bool /*enSequentialWrite*/ = false) {
    if (Inert()) return;
    const uint64_t need = uint64_t(tiling_.baseM) * tiling_.baseN;
    if (c.GetSize() < need) {
      ::npud::ascendc::Fail(
          "Matmul::GetTensorC: the local tensor has %u elements, a base block "
          "%llu",
          c.GetSize(), static_cast<unsigned long long>(need));
    }
    for (uint64_t i = 0; i < need; ++i) c.Data()[i] = static_cast<TC>(block_[i]);
  }

  template <bool kSync = true>
  void GetTensorC(const AscendC::GlobalTensor<TC>& c, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    if (Inert()) return;
    TC* out = c.GetPhyAddr();
    const int32_t rows = BlockRows(), cols = BlockCols();
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t j = 0; j < cols; ++j) {
        const uint64_t at = enSequentialWrite ? uint64_t(r) * tiling_.baseN + j
                                              : (uint64_t(mb_) * tiling_.baseM + r) * c_stride_ +
                                                    uint64_t(nb_) * tiling_.baseN + j;
        Store(out[at], block_[uint64_t(r) * tiling_.baseN + j], enAtomic);
      }
    }
  }

  template <bool kSync = true>
  void IterateAll(const AscendC::GlobalTensor<TC>& c, uint8_t enAtomic = 0,
                  bool /*enSequentialWrite*/ = false, bool /*waitIterateAll*/ = false,
                  bool /*fakeMsg*/ = false) {
    while (Iterate<kSync>()) GetTensorC<kSync>(c, enAtomic, false);
  }

  void WaitIterateAll() {}
  void End() { started_ = false; }

 private:
  static int32_t Ceil(int32_t a, int32_t b) { return b <= 0 ? 0 : (a + b - 1) / b; }

  // The cube core of a mix kernel's group: the vector cores compute.
  static bool Inert() {
    uint32_t core = 0;
    return ::npud::ascendc::MixGroup::Current(&core) != nullptr && core == 0;
  }

  int32_t BlockRows() const {
    return std::min<int32_t>(tiling_.baseM, tiling_.singleCoreM - mb_ * tiling_.baseM);
  }
  int32_t BlockCols() const {
    return std::min<int32_t>(tiling_.baseN, tiling_.singleCoreN - nb_ * tiling_.baseN);
  }

  static void Store(TC& to, Acc value, uint8_t atomic) {
    if (atomic == 1) {
      to = static_cast<TC>(static_cast<Acc>(to) + value);
    } else {
      to = static_cast<TC>(value);
    }
  }

  void ComputeBlock() {
    if (a_ == nullptr || b_ == nullptr) {
      ::npud::ascendc::Fail("Matmul::Iterate: SetTensorA and SetTensorB come first");
    }
    const uint64_t size = uint64_t(tiling_.baseM) * tiling_.baseN;
    if (block_size_ != size) {
      block_.reset(new Acc[size]);
      block_size_ = size;
    }
    const int32_t rows = BlockRows(), cols = BlockCols(), k = tiling_.singleCoreK;
    const int32_t m0 = mb_ * tiling_.baseM, n0 = nb_ * tiling_.baseN;
    for (uint64_t i = 0; i < size; ++i) block_[i] = Acc{};
    // The block's rows of A and columns of B as contiguous rows of the accumulation
    // type, converted once; then multiply-adds with four partial sums.
    panel_a_.resize(uint64_t(rows) * k);
    panel_b_.resize(uint64_t(cols) * k);
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t p = 0; p < k; ++p) {
        panel_a_[uint64_t(r) * k + p] = static_cast<Acc>(
            trans_a_ ? a_[uint64_t(p) * org_m_ + m0 + r] : a_[uint64_t(m0 + r) * org_ka_ + p]);
      }
    }
    for (int32_t j = 0; j < cols; ++j) {
      for (int32_t p = 0; p < k; ++p) {
        panel_b_[uint64_t(j) * k + p] = static_cast<Acc>(
            trans_b_ ? b_[uint64_t(n0 + j) * org_kb_ + p] : b_[uint64_t(p) * org_n_ + n0 + j]);
      }
    }
    for (int32_t r = 0; r < rows; ++r) {
      const Acc* ra = &panel_a_[uint64_t(r) * k];
      for (int32_t j = 0; j < cols; ++j) {
        const Acc* rb = &panel_b_[uint64_t(j) * k];
        Acc s0{}, s1{}, s2{}, s3{};
        int32_t p = 0;
        for (; p + 4 <= k; p += 4) {
          s0 += ra[p] * rb[p];
          s1 += ra[p + 1] * rb[p + 1];
          s2 += ra[p + 2] * rb[p + 2];
          s3 += ra[p + 3] * rb[p + 3];
        }
        for (; p < k; ++p) s0 += ra[p] * rb[p];
        const Acc bias = bias_ != nullptr ? static_cast<Acc>(bias_[n0 + j]) : Acc{};
        block_[uint64_t(r) * tiling_.baseN + j] = bias + ((s0 + s1) + (s2 + s3));
      }
    }
  }

  AscendC::tiling::TCubeTiling tiling_{};
  int32_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, c_stride_ = 0;
  const TA* a_ = nullptr;
  const TB* b_ = nullptr;
  const TBias* bias_ = nullptr;
  bool trans_a_ = false, trans_b_ = false;
  bool started_ = false;
  int32_t mb_ = 0, nb_ = 0;
  std::unique_ptr<Acc[]> block_;
  uint64_t block_size_ = 0;
  std::vector<Acc> panel_a_, panel_b_;
};

}  // namespace matmul

namespace npud::ascendc {

inline void RegisterMatmuls() {}
template <class M, class... Rest>
void RegisterMatmuls(M& matmul, const AscendC::tiling::TCubeTiling* tiling, Rest&&... rest) {
  matmul.Init(tiling);
  RegisterMatmuls(rest...);
}

}  // namespace npud::ascendc

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]): each object
// takes its tiling (the pipe and the workspace are not needed on the CPU).
#define REGIST_MATMUL_OBJ(pipe, workspace, ...)    \
  do {                                             \
    static_cast<void>(pipe);                       \
    static_cast<void>(workspace);                  \
    ::npud::ascendc::RegisterMatmuls(__VA_ARGS__); \
  } while (0)

#endif  // NPUD_LIB_MATMUL_INTF_H_
