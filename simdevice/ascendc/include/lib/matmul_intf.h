// lib/matmul_intf.h: the advanced Matmul API (AscendC::Matmul, also spelt matmul::),
// on the CPU.
//
//   AscendC::Matmul<MatmulType<GM, CubeFormat::ND, half>,      // A
//                   MatmulType<GM, CubeFormat::ND, half>,      // B
//                   MatmulType<GM, CubeFormat::ND, float>,     // C
//                   MatmulType<GM, CubeFormat::ND, float>,     // bias (default: C's)
//                   CFG_NORM> mm;                              // lib/matmul/matmul_config.h
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
// the tiling's iterateOrder (0: down M first, a column of blocks at a time; 1: along
// N first, a row at a time), as CANN's TCubeTiling defines it; GetTensorC writes the current block
// to a local tensor as a dense baseM x baseN row-major block, or to GM at its place (dense with
// enSequentialWrite). enAtomic 1 adds to GM. With a configuration's isPartialOutput,
// each Iterate is one baseK slice of the block's sum (the caller adds them up).
// A constant tiling (GetMatmulApiTiling) as the configuration takes the base block
// from it and needs no TCubeTiling.
//
// In a mix kernel the vector cores drive the Matmul (as CANN's client / server
// split does): on the group's cube core REGIST_MATMUL_OBJ returns from the kernel,
// and an object used there anyway does nothing (Iterate is false at once). In a
// cube kernel the cube core computes.
//
// Not simulated (compile errors or failed checks): NZ formats, batch matmul,
// quantisation, the asynchronous forms' waits (they run synchronously).
#ifndef NPUD_LIB_MATMUL_INTF_H_
#define NPUD_LIB_MATMUL_INTF_H_

#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/matmul_config.h"

#define __kfc_workspace__

namespace AscendC {

template <AscendC::TPosition kPosition, CubeFormat kFormat, class T, bool kTranspose = false,
          LayoutMode kLayout = LayoutMode::NONE, bool kIbShare = false>
struct MatmulType {
  static constexpr AscendC::TPosition pos = kPosition;
  static constexpr CubeFormat format = kFormat;
  using Type = T;
  static constexpr bool isTrans = kTranspose;
  static constexpr LayoutMode layout = kLayout;
  static constexpr bool ibShare = kIbShare;
};

namespace npud_matmul {

// What a Matmul's configuration argument says: a MatmulConfig, or a constant
// tiling (MatmulApiStaticTiling) that carries one.
constexpr const MatmulConfig& ConfigOf(const MatmulConfig& cfg) { return cfg; }
constexpr const MatmulConfig& ConfigOf(const MatmulApiStaticTiling& tiling) { return tiling.cfg; }
constexpr bool IsConstantTiling(const MatmulConfig&) { return false; }
constexpr bool IsConstantTiling(const MatmulApiStaticTiling&) { return true; }

}  // namespace npud_matmul

template <class A, class B, class C, class Bias = C, const auto& kConfig = CFG_NORM>
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
    if (tiling != nullptr) {
      tiling_ = *tiling;
    } else if constexpr (npud_matmul::IsConstantTiling(kConfig)) {
      // The constant tiling's blocks; the shapes come with SetOrgShape / SetTail.
      tiling_ = AscendC::tiling::TCubeTiling{};
      tiling_.singleCoreM = kConfig.singleCoreM;
      tiling_.singleCoreN = kConfig.singleCoreN;
      tiling_.singleCoreK = kConfig.singleCoreK;
      tiling_.baseM = kConfig.baseM;
      tiling_.baseN = kConfig.baseN;
      tiling_.baseK = kConfig.baseK;
      tiling_.iterateOrder = kConfig.iterateOrder < 0 ? 0 : kConfig.iterateOrder;
    } else {
      ::npud::ascendc::Fail(
          "Matmul::Init: no tiling (only a constant tiling configuration needs none)");
    }
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
    if constexpr (!kSync) {
      // The asynchronous form starts the walk; each GetTensorC<false> then takes
      // the next block (computed when asked, on the CPU).
      async_ = true;
      started_ = false;
      return true;
    }
    const int32_t m_blocks = Ceil(tiling_.singleCoreM, tiling_.baseM);
    const int32_t n_blocks = Ceil(tiling_.singleCoreN, tiling_.baseN);
    // Partial output: every baseK slice of a block is an Iterate of its own.
    const int32_t k_slices = kPartialOutput ? Ceil(tiling_.singleCoreK, tiling_.baseK) : 1;
    if (!started_) {
      started_ = true;
      mb_ = nb_ = kb_ = 0;
    } else if (++kb_ < k_slices) {
      // the next slice of the same block
    } else if ((kb_ = 0), tiling_.iterateOrder == 1) {
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
    if (!NextAsyncBlock<kSync>()) return;
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
    if (!NextAsyncBlock<kSync>()) return;
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
    // The asynchronous form too runs to the end here (WaitIterateAll has nothing
    // left to wait for).
    while (Iterate<true>()) GetTensorC<true>(c, enAtomic, false);
  }

  void WaitIterateAll() {}
  void End() {
    started_ = false;
    async_ = false;
  }
  // The GM scratch the NPU's asynchronous forms stage C in; not needed here.
  template <class T>
  void SetWorkspace(const AscendC::GlobalTensor<T>& /*workspace*/) {}
  template <class T>
  void SetLocalWorkspace(const AscendC::LocalTensor<T>& /*workspace*/) {}

 private:
  static constexpr bool kPartialOutput = npud_matmul::ConfigOf(kConfig).isPartialOutput;

  // After Iterate<false>, a GetTensorC<false> moves to the next block first;
  // false when there is none left (the call then writes nothing).
  template <bool kSync>
  bool NextAsyncBlock() {
    if (kSync || !async_) return true;
    if (Iterate<true>()) return true;
    ::npud::ascendc::Fail("Matmul::GetTensorC<false>: every block was already taken");
    return false;
  }

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
    const int32_t rows = BlockRows(), cols = BlockCols();
    const int32_t m0 = mb_ * tiling_.baseM, n0 = nb_ * tiling_.baseN;
    // The K range of this Iterate: all of it, or one baseK slice.
    const int32_t k0 = kPartialOutput ? kb_ * tiling_.baseK : 0;
    const int32_t k =
        kPartialOutput ? std::min(tiling_.baseK, tiling_.singleCoreK - k0) : tiling_.singleCoreK;
    const bool with_bias = bias_ != nullptr && k0 == 0;
    for (uint64_t i = 0; i < size; ++i) block_[i] = Acc{};
    // The block's rows of A and columns of B as contiguous rows of the accumulation
    // type, converted once; then multiply-adds with four partial sums.
    panel_a_.resize(uint64_t(rows) * k);
    panel_b_.resize(uint64_t(cols) * k);
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t p = 0; p < k; ++p) {
        panel_a_[uint64_t(r) * k + p] =
            static_cast<Acc>(trans_a_ ? a_[uint64_t(k0 + p) * org_m_ + m0 + r]
                                      : a_[uint64_t(m0 + r) * org_ka_ + k0 + p]);
      }
    }
    for (int32_t j = 0; j < cols; ++j) {
      for (int32_t p = 0; p < k; ++p) {
        panel_b_[uint64_t(j) * k + p] =
            static_cast<Acc>(trans_b_ ? b_[uint64_t(n0 + j) * org_kb_ + k0 + p]
                                      : b_[uint64_t(k0 + p) * org_n_ + n0 + j]);
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
        const Acc bias = with_bias ? static_cast<Acc>(bias_[n0 + j]) : Acc{};
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
  bool async_ = false;  // Iterate<false> started the walk
  int32_t mb_ = 0, nb_ = 0, kb_ = 0;
  std::unique_ptr<Acc[]> block_;
  uint64_t block_size_ = 0;
  std::vector<Acc> panel_a_, panel_b_;
};

}  // namespace AscendC

namespace matmul {

// CANN's older spelling; its namespace brings AscendC's names along (`using
// namespace matmul;` kernels call GetBlockIdx() unqualified).
using namespace AscendC;
using ::CubeFormat;

}  // namespace matmul

namespace npud::ascendc {

inline bool OnMixCubeCore() {
  uint32_t core = 0;
  return MixGroup::Current(&core) != nullptr && core == 0;
}

inline void RegisterMatmuls() {}
template <class M, class... Rest>
void RegisterMatmuls(M& matmul, const AscendC::tiling::TCubeTiling* tiling, Rest&&... rest) {
  matmul.Init(tiling);
  RegisterMatmuls(rest...);
}

}  // namespace npud::ascendc

// REGIST_MATMUL_OBJ(pipe, workspace, mm1, &tiling1[, mm2, &tiling2 ...]): each object
// takes its tiling (the pipe and the workspace are not needed on the CPU). On the cube
// core of a mix kernel's group the macro returns from the kernel, as CANN's does: there
// the NPU's cube core serves the vector cores' Matmul calls and runs none of the
// kernel's own code after it (here the vector cores compute, and the cube core is done).
#define REGIST_MATMUL_OBJ(pipe, workspace, ...)    \
  do {                                             \
    static_cast<void>(pipe);                       \
    static_cast<void>(workspace);                  \
    ::npud::ascendc::RegisterMatmuls(__VA_ARGS__); \
    if (::npud::ascendc::OnMixCubeCore()) return;  \
  } while (0)

#endif  // NPUD_LIB_MATMUL_INTF_H_
