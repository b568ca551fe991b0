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
// tiling/tiling_api.h) from the A rows and B columns its SetTensorA/B point at (in GM,
// or in a local tensor for TSCM operands), with the full shapes of SetOrgShape
// (default: the tiling's M, N, Ka, Kb) as row strides: A is M x Ka (Ka x M
// transposed), B is Kb x N (N x Kb transposed), C rows N apart; ND, VECTOR or NZ
// inputs, ND, ND_ALIGN or NZ outputs (lib/matmul/matrix_view.h). Products accumulate
// in float (exactly for int8 / int4), plus the bias row when set, then convert to C's
// type, quantised after SetQuantScalar / SetQuantVector (lib/matmul/quant_out.h).
// Iterate walks the core's baseM x baseN blocks in the tiling's iterateOrder (0: down
// M first, a column of blocks at a time; 1: along N first, a row at a time), as CANN's
// TCubeTiling defines it; GetTensorC writes the current block to a local tensor as a
// dense baseM x baseN row-major block, or to GM at its place (dense with
// enSequentialWrite), and Iterate(enPartialSum, l0c) into a kernel's own CO1 tensor
// as NZ. enAtomic 1 adds to GM. With a configuration's isPartialOutput, each Iterate
// is one baseK slice of the block's sum (the caller adds them up). A constant tiling
// (GetMatmulApiTiling) as the configuration takes the base block from it and needs
// no TCubeTiling.
//
// Beyond that: batches (lib/matmul/batch_api.h), sparse B (lib/matmul/sparse_b.h), the
// CopyA1 / CopyB1 callbacks of MatmulCallBackFunc (lib/matmul/copy_callback.h), the
// triangular policies (lib/matmul/matmul_type.h) and the arithmetic of a block
// (lib/matmul/block_product.h).
//
// In a mix kernel the vector cores drive the Matmul (as CANN's client / server
// split does): on the group's cube core REGIST_MATMUL_OBJ returns from the kernel,
// and an object used there anyway does nothing (Iterate is false at once). In a
// cube kernel, and in a mix kernel of a source that defines ASCENDC_CUBE_ONLY, the
// cube core computes.
//
// Not simulated (compile errors or failed checks): the DataCopyOut callback, the
// asynchronous forms' waits (they run synchronously), quantised batches.
#ifndef NPUD_LIB_MATMUL_INTF_H_
#define NPUD_LIB_MATMUL_INTF_H_

#include <algorithm>
#include <cstdint>
#include <memory>
#include <type_traits>
#include <vector>

#include "kernel_operator.h"
#include "kernel_tiling/kernel_tiling.h"
#include "lib/matmul/batch_api.h"
#include "lib/matmul/batch_layout.h"
#include "lib/matmul/block_product.h"
#include "lib/matmul/copy_callback.h"
#include "lib/matmul/matmul_config.h"
#include "lib/matmul/matmul_type.h"
#include "lib/matmul/matrix_view.h"
#include "lib/matmul/quant_out.h"
#include "lib/matmul/sparse_b.h"

#define __kfc_workspace__

// A source that defines ASCENDC_CUBE_ONLY before this header runs its Matmuls on the
// cube core (also in a mix kernel, whose vector cores then do other work).
#ifdef ASCENDC_CUBE_ONLY
#define NPUD_MATMUL_CUBE_ONLY true
#else
#define NPUD_MATMUL_CUBE_ONLY false
#endif

namespace AscendC {

namespace npud_matmul {

// What a Matmul's configuration argument says: a MatmulConfig, or a constant
// tiling (MatmulApiStaticTiling) that carries one.
constexpr const MatmulConfig& ConfigOf(const MatmulConfig& cfg) { return cfg; }
constexpr const MatmulConfig& ConfigOf(const MatmulApiStaticTiling& tiling) { return tiling.cfg; }
constexpr bool IsConstantTiling(const MatmulConfig&) { return false; }
constexpr bool IsConstantTiling(const MatmulApiStaticTiling&) { return true; }

constexpr bool IsInputFormat(CubeFormat f) {
  return f == CubeFormat::ND || f == CubeFormat::VECTOR || f == CubeFormat::NZ;
}
constexpr bool IsOutputFormat(CubeFormat f) {
  return f == CubeFormat::ND || f == CubeFormat::ND_ALIGN || f == CubeFormat::NZ;
}

}  // namespace npud_matmul

template <class A, class B, class C, class Bias = C, const auto& kConfig = CFG_NORM,
          class Callbacks = MatmulCallBackFunc<>,
          template <const auto&, class, class, class, class, class> class Policy =
              Impl::Detail::MatmulPolicy>
class Matmul : public npud_matmul::BatchApi<Matmul<A, B, C, Bias, kConfig, Callbacks, Policy>,
                                            typename C::Type> {
  friend class npud_matmul::BatchApi<Matmul, typename C::Type>;
  static_assert(npud_matmul::IsInputFormat(A::format) && npud_matmul::IsInputFormat(B::format),
                "npud: the CPU Matmul reads A and B in ND, VECTOR or NZ");
  static_assert(npud_matmul::IsOutputFormat(C::format),
                "npud: the CPU Matmul writes C in ND, ND_ALIGN or NZ");
  using TA = typename A::Type;
  using TB = typename B::Type;
  using TC = typename C::Type;
  using TBias = typename Bias::Type;
  // Integer inputs (int8, int4) accumulate exactly, the others in float.
  using Acc =
      std::conditional_t<std::is_integral_v<TA> || std::is_same_v<TA, int4b_t>, int64_t, float>;

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
  // A in L1 (TSCM) or the UB, laid out as in GM (SetOrgShape's shape).
  void SetTensorA(const AscendC::LocalTensor<TA>& a, bool transpose = A::isTrans) {
    a_ = a.Data();
    trans_a_ = transpose;
  }
  void SetTensorB(const AscendC::GlobalTensor<TB>& b, bool transpose = B::isTrans) {
    b_ = b.GetPhyAddr();
    trans_b_ = transpose;
  }
  void SetTensorB(const AscendC::LocalTensor<TB>& b, bool transpose = B::isTrans) {
    b_ = b.Data();
    trans_b_ = transpose;
  }
  void SetBias(const AscendC::GlobalTensor<TBias>& bias) { bias_ = bias.GetPhyAddr(); }
  void SetBias(const AscendC::LocalTensor<TBias>& bias) { bias_ = bias.Data(); }
  void DisableBias() { bias_ = nullptr; }
  void ClearBias() { bias_ = nullptr; }
  // What the copy callbacks receive as tilingPtr and dataPtr.
  void SetUserDefInfo(const uint64_t tilingPtr) { user_info_ = tilingPtr; }
  void SetSelfDefineData(const uint64_t dataPtr) { self_data_ = dataPtr; }
  // Quantisation of C on its way out (CANN's fixpipe words: the multiplier in bits
  // [31:13], for int8 outputs the offset in bits [37:45] and the sign in bit 46): one
  // word for all of C, or one per column of the core's C.
  void SetQuantScalar(const uint64_t quantScalar) {
    quant_ = npud_matmul::OutputQuant{true, quantScalar, nullptr};
  }
  void SetQuantVector(const AscendC::GlobalTensor<uint64_t>& quantTensor) {
    quant_ = npud_matmul::OutputQuant{true, 0, quantTensor.GetPhyAddr()};
  }
  void SetQuantVector(const AscendC::LocalTensor<uint64_t>& quantTensor) {
    quant_ = npud_matmul::OutputQuant{true, 0, quantTensor.Data()};
  }
  // The index matrix of a sparse B (SparseMatmulType).
  void SetSparseIndex(const AscendC::GlobalTensor<uint8_t>& indexGlobal) {
    sparse_index_ = indexGlobal.GetPhyAddr();
  }
  void SetHF32(bool /*enable*/ = false, int32_t /*mode*/ = 0) {}
  void SetSubBlockIdx(uint8_t /*idx*/) {}

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
    do {
      if (!Advance()) return false;
    } while (SkippedByPolicy());
    ComputeBlock();
    return true;
  }

  // A kernel that manages CO1 itself: the next block into its L0C tensor, as the cube
  // leaves it there (NZ, fractals of 16 x 16 over baseM rows rounded up to 16), added
  // to what is there with enPartialSum.
  template <bool kSync = true, class T>
  bool Iterate(bool enPartialSum, const AscendC::LocalTensor<T>& localCmatrix) {
    if (!Iterate<true>()) return false;
    const npud_matmul::MatrixPlace place = npud_matmul::NzPlace(tiling_.baseM, 16);
    const uint64_t need = place.rows_pad * npud_matmul::AlignUp(tiling_.baseN, 16);
    if (localCmatrix.GetSize() < need) {
      ::npud::ascendc::Fail("Matmul::Iterate: the L0C tensor has %u elements, a block needs %llu",
                            localCmatrix.GetSize(), static_cast<unsigned long long>(need));
    }
    T* out = localCmatrix.Data();
    for (int32_t r = 0; r < BlockRows(); ++r) {
      for (int32_t j = 0; j < BlockCols(); ++j) {
        const T value = static_cast<T>(block_[uint64_t(r) * tiling_.baseN + j]);
        T& to = out[place.Index(r, j)];
        to = enPartialSum ? static_cast<T>(to + value) : value;
      }
    }
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
    for (uint64_t i = 0; i < need; ++i) {
      c.Data()[i] = Convert(block_[i], uint64_t(nb_) * tiling_.baseN + i % tiling_.baseN);
    }
  }

  template <bool kSync = true>
  void GetTensorC(const AscendC::GlobalTensor<TC>& c, uint8_t enAtomic = 0,
                  bool enSequentialWrite = false) {
    if (Inert()) return;
    if (!NextAsyncBlock<kSync>()) return;
    if (enSequentialWrite) {
      WriteBlock(c.GetPhyAddr(), npud_matmul::NdPlace(tiling_.baseN), false, enAtomic);
    } else {
      WriteBlock(c.GetPhyAddr(), CPlace(), true, enAtomic);
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
  template <class T>
  void SetLocalWorkspace(const AscendC::LocalTensor<T>& /*workspace*/) {}

 private:
  static constexpr bool kPartialOutput = npud_matmul::ConfigOf(kConfig).isPartialOutput;
  static constexpr bool kBiasBatch = npud_matmul::ConfigOf(kConfig).isBiasBatch;
  static constexpr bool kSparseB = npud_matmul::IsSparse<B>::value;
  static constexpr bool kRelu = npud_matmul::ConfigOf(kConfig).enableRelu;
  static constexpr bool kChannelSplit = npud_matmul::ConfigOf(kConfig).isEnableChannelSplit;
  static constexpr int kTriangle = Policy<kConfig, void, A, B, C, Bias>::kTriangle;
  static constexpr MatmulCopyA1 kCopyA1 = Callbacks::CopyA1Ptr;
  static constexpr MatmulCopyB1 kCopyB1 = Callbacks::CopyB1Ptr;
  static_assert(Callbacks::DataCopyOutPtr == nullptr,
                "npud: the CPU Matmul does not call a DataCopyOut callback");

  // Moves (mb_, nb_, kb_) to the next Iterate's block; false at the end of the walk.
  bool Advance() {
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
    return true;
  }

  // The triangular policies leave the blocks on the other side of the diagonal alone.
  bool SkippedByPolicy() const {
    if constexpr (kTriangle == 1) return mb_ > nb_;
    if constexpr (kTriangle == 2) return mb_ < nb_;
    return false;
  }

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

  // The core of a mix kernel's group that does not compute: the cube core (the vector
  // cores drive the Matmul), or with ASCENDC_CUBE_ONLY the vector cores.
  static bool Inert() {
    uint32_t core = 0;
    if (::npud::ascendc::MixGroup::Current(&core) == nullptr) return false;
    return NPUD_MATMUL_CUBE_ONLY ? core != 0 : core == 0;
  }

  int32_t BlockRows() const {
    return std::min<int32_t>(tiling_.baseM, tiling_.singleCoreM - mb_ * tiling_.baseM);
  }
  int32_t BlockCols() const {
    return std::min<int32_t>(tiling_.baseN, tiling_.singleCoreN - nb_ * tiling_.baseN);
  }

  TC Convert(Acc value, uint64_t col) const { return quant_.Convert<TC>(value, col, kRelu); }

  void Store(TC& to, Acc value, uint64_t col, uint8_t atomic) const {
    if (atomic == 1) {
      to = static_cast<TC>(static_cast<Acc>(to) + static_cast<Acc>(Convert(value, col)));
    } else {
      to = Convert(value, col);
    }
  }

  template <class T>
  static constexpr uint64_t C0() {
    return sizeof(T) >= 32 ? 1 : 32 / sizeof(T);
  }

  // Where A's and B's stored elements are (in GM or, for TSCM / VECOUT operands, in a
  // local tensor laid out the same way): ND rows apart by the original shape (or a
  // batch's rows), NZ fractals over the original rows.
  npud_matmul::MatrixPlace APlace() const {
    if constexpr (A::format == CubeFormat::NZ) {
      return npud_matmul::NzPlace(trans_a_ ? org_ka_ : org_m_, C0<TA>());
    }
    return npud_matmul::NdPlace(a_ld_ != 0 ? a_ld_ : trans_a_ ? org_m_ : org_ka_);
  }
  npud_matmul::MatrixPlace BPlace() const {
    if constexpr (B::format == CubeFormat::NZ) {
      return npud_matmul::NzPlace(trans_b_ ? org_n_ : org_kb_, C0<TB>());
    }
    return npud_matmul::NdPlace(b_ld_ != 0 ? b_ld_ : trans_b_ ? org_kb_ : org_n_);
  }
  // C in GM: ND rows c_stride_ apart (ND_ALIGN: padded to 32 bytes), or NZ fractals of
  // 16 (8 for float with channel split) over the original M.
  npud_matmul::MatrixPlace CPlace() const {
    if constexpr (C::format == CubeFormat::NZ) {
      return npud_matmul::NzPlace(org_m_, kChannelSplit && sizeof(TC) == 4 ? 8 : 16);
    }
    if (c_ld_ != 0) return npud_matmul::NdPlace(c_ld_);
    if constexpr (C::format == CubeFormat::ND_ALIGN) {
      return npud_matmul::NdPlace(npud_matmul::AlignUp(c_stride_, C0<TC>()));
    }
    return npud_matmul::NdPlace(c_stride_);
  }

  // Writes the current block: at its place in the core's C (`placed`), or at (0, 0).
  void WriteBlock(TC* out, const npud_matmul::MatrixPlace& place, bool placed, uint8_t atomic) {
    const int32_t rows = BlockRows(), cols = BlockCols();
    const uint64_t r0 = placed ? uint64_t(mb_) * tiling_.baseM : 0;
    const uint64_t c0 = placed ? uint64_t(nb_) * tiling_.baseN : 0;
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t j = 0; j < cols; ++j) {
        Store(out[place.Index(r0 + r, c0 + j)], block_[uint64_t(r) * tiling_.baseN + j],
              uint64_t(nb_) * tiling_.baseN + j, atomic);
      }
    }
  }

  // The A rows [m0, m0 + rows) and K range [k0, k0 + k) as rows of Acc: read in place, or
  // block by block through the CopyA1 callback (lib/matmul/copy_callback.h).
  void FillPanelA(int32_t m0, int32_t rows, int32_t k0, int32_t k) {
    panel_a_.resize(uint64_t(rows) * k);
    if constexpr (kCopyA1 != nullptr) {
      const int32_t first = k0 / tiling_.baseK;
      npud_matmul::PanelFromCallback<TA>(
          panel_a_.data(), rows, k, tiling_.baseK, !trans_a_,
          [&](const LocalTensor<int8_t>& l1, int32_t slice, int32_t kk) {
            kCopyA1(l1, a_, mb_, first + slice, rows, kk, user_info_, self_data_);
          },
          scratch_);
      return;
    }
    const npud_matmul::MatrixPlace place = APlace();
    for (int32_t r = 0; r < rows; ++r) {
      for (int32_t p = 0; p < k; ++p) {
        panel_a_[uint64_t(r) * k + p] = static_cast<Acc>(::npud::ascendc::LoadElement(
            a_, trans_a_ ? place.Index(k0 + p, m0 + r) : place.Index(m0 + r, k0 + p)));
      }
    }
  }

  // B's columns [n0, n0 + cols) over [k0, k0 + k) as rows of Acc (CopyB1 like CopyA1).
  void FillPanelB(int32_t n0, int32_t cols, int32_t k0, int32_t k) {
    panel_b_.resize(uint64_t(cols) * k);
    if constexpr (kCopyB1 != nullptr) {
      const int32_t first = k0 / tiling_.baseK;
      npud_matmul::PanelFromCallback<TB>(
          panel_b_.data(), cols, k, tiling_.baseK, trans_b_,
          [&](const LocalTensor<int8_t>& l1, int32_t slice, int32_t kk) {
            kCopyB1(l1, b_, first + slice, nb_, kk, cols, user_info_, self_data_);
          },
          scratch_);
      return;
    }
    if constexpr (kSparseB) {
      FillSparsePanelB(n0, cols, k0, k);
      return;
    }
    const npud_matmul::MatrixPlace place = BPlace();
    for (int32_t j = 0; j < cols; ++j) {
      for (int32_t p = 0; p < k; ++p) {
        panel_b_[uint64_t(j) * k + p] = static_cast<Acc>(::npud::ascendc::LoadElement(
            b_, trans_b_ ? place.Index(n0 + j, k0 + p) : place.Index(k0 + p, n0 + j)));
      }
    }
  }

  void FillSparsePanelB(int32_t n0, int32_t cols, int32_t k0, int32_t k) {
    if (!trans_b_ || sparse_index_ == nullptr || k0 % 4 != 0) {
      ::npud::ascendc::Fail(
          "Matmul: a sparse B is transposed (N x K/2), with SetSparseIndex before Iterate");
    }
    npud_matmul::ExpandSparseB(panel_b_.data(), b_, sparse_index_, org_n_, org_kb_, n0, cols, k0,
                               k);
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
    // type, converted once; then the product (lib/matmul/block_product.h), plus the bias.
    FillPanelA(m0, rows, k0, k);
    FillPanelB(n0, cols, k0, k);
    npud_matmul::PackStrips(panel_b_.data(), cols, k, strips_);
    npud_matmul::MultiplyStrips(panel_a_.data(), strips_.data(), block_.get(), rows, cols, k,
                                tiling_.baseN);
    if (with_bias) {
      for (int32_t r = 0; r < rows; ++r) {
        for (int32_t j = 0; j < cols; ++j) {
          Acc& v = block_[uint64_t(r) * tiling_.baseN + j];
          v = static_cast<Acc>(bias_[n0 + j]) + v;
        }
      }
    }
  }

  // The batches of one IterateBatch (round `round` of an IterateNBatch), C at `out` by
  // its layout (`dense`: one singleCoreM x singleCoreN block after the other).
  void RunBatches(TC* out, uint32_t round, uint32_t batchA, uint32_t batchB, bool dense,
                  uint32_t strideA, uint32_t strideB, uint8_t atomic) {
    if (Inert()) return;
    if (batchA == 0 || batchB == 0) return;
    const uint32_t batchC = std::max(batchA, batchB);
    const TA* a = a_;
    const TB* b = b_;
    const TBias* bias = bias_;
    const npud_matmul::BatchAxes ax{tiling_.ALayoutInfoB, tiling_.ALayoutInfoS,
                                    tiling_.ALayoutInfoN, tiling_.ALayoutInfoG,
                                    tiling_.ALayoutInfoD};
    const npud_matmul::BatchAxes bx{tiling_.BLayoutInfoB, tiling_.BLayoutInfoS,
                                    tiling_.BLayoutInfoN, tiling_.BLayoutInfoG,
                                    tiling_.BLayoutInfoD};
    const npud_matmul::BatchAxes cx{tiling_.CLayoutInfoB, tiling_.CLayoutInfoS1,
                                    tiling_.CLayoutInfoN, tiling_.CLayoutInfoG,
                                    tiling_.CLayoutInfoS2};
    const uint64_t m = tiling_.singleCoreM, n = tiling_.singleCoreN, k = tiling_.singleCoreK;
    for (uint32_t j = 0; j < batchC; ++j) {
      const uint64_t ja = uint64_t(round) * batchA + j / (batchC / batchA);
      const uint64_t jb = uint64_t(round) * batchB + j / (batchC / batchB);
      const uint64_t jc = uint64_t(round) * batchC + j;
      const auto va =
          npud_matmul::BatchOperand(A::layout, ax, ja, trans_a_ ? k : m, trans_a_ ? m : k, strideA);
      const auto vb =
          npud_matmul::BatchOperand(B::layout, bx, jb, trans_b_ ? n : k, trans_b_ ? k : n, strideB);
      const auto vc = npud_matmul::BatchOperand(C::layout, cx, jc, m, n);
      a_ = a + va.start;
      a_ld_ = va.ld;
      b_ = b + vb.start;
      b_ld_ = vb.ld;
      bias_ = bias == nullptr ? nullptr : bias + (kBiasBatch ? jc * n : 0);
      TC* c = dense ? out + jc * m * n : out + vc.start;
      c_ld_ = dense ? n : vc.ld;
      started_ = false;
      while (Iterate<true>()) WriteBlock(c, CPlace(), true, atomic);
    }
    a_ = a;
    b_ = b;
    bias_ = bias;
    a_ld_ = b_ld_ = c_ld_ = 0;
  }

  AscendC::tiling::TCubeTiling tiling_{};
  int32_t org_m_ = 0, org_n_ = 0, org_ka_ = 0, org_kb_ = 0, c_stride_ = 0;
  const TA* a_ = nullptr;
  const TB* b_ = nullptr;
  const TBias* bias_ = nullptr;
  bool trans_a_ = false, trans_b_ = false;
  uint64_t a_ld_ = 0, b_ld_ = 0, c_ld_ = 0;  // a batch's row strides (0: the shapes')
  uint64_t user_info_ = 0, self_data_ = 0;
  npud_matmul::OutputQuant quant_;
  const uint8_t* sparse_index_ = nullptr;
  bool started_ = false;
  bool async_ = false;  // Iterate<false> started the walk
  int32_t mb_ = 0, nb_ = 0, kb_ = 0;
  std::unique_ptr<Acc[]> block_;
  uint64_t block_size_ = 0;
  std::vector<Acc> panel_a_, panel_b_, strips_;
  std::vector<uint8_t> scratch_;
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
// With ASCENDC_CUBE_ONLY the cube core computes and goes on with the kernel.
#define REGIST_MATMUL_OBJ(pipe, workspace, ...)                             \
  do {                                                                      \
    static_cast<void>(pipe);                                                \
    static_cast<void>(workspace);                                           \
    ::npud::ascendc::RegisterMatmuls(__VA_ARGS__);                          \
    if (!NPUD_MATMUL_CUBE_ONLY && ::npud::ascendc::OnMixCubeCore()) return; \
  } while (0)

#endif  // NPUD_LIB_MATMUL_INTF_H_
