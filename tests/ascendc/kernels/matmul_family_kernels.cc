// Kernels of the Matmul family beyond plain ND (lib/matmul_intf.h): batches, quantised
// and NZ outputs, a copy callback, the triangular policy, sparse B, a TSCM operand, a
// kernel-managed L0C, and the whole-tensor operators of tensor_expr.h. All cube
// kernels on one block unless said otherwise; matmul_family_test.cc checks them
// against host references.
#include "kernel_operator.h"
#include "lib/matmul_intf.h"

using AscendC::TPosition;

template <class T>
AscendC::GlobalTensor<T> Gm(GM_ADDR addr) {
  AscendC::GlobalTensor<T> t;
  t.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(addr));
  return t;
}

template <TPosition kPos, CubeFormat kFormat, class T, bool kTrans = false,
          LayoutMode kLayout = LayoutMode::NONE>
using Mt = AscendC::MatmulType<kPos, kFormat, T, kTrans, kLayout>;

// BSNGD batches: A [B, S=M, N, G, D=K], B transposed [B, S=N, N, G, D=K], C [B, M, N, G, N];
// one IterateBatch of `batch` batches.
extern "C" __global__ __cube__ void mm_batch_bsngd(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                   TCubeTiling tiling, uint32_t batch) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::BSNGD>,
                  Mt<TPosition::GM, CubeFormat::ND, half, true, LayoutMode::BSNGD>,
                  Mt<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::BSNGD>>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<half>(a), false);
  mm.SetTensorB(Gm<half>(b), true);
  mm.IterateBatch(Gm<float>(c), batch, batch, false);
  mm.End();
}

// NORMAL batches with A broadcast (batchA of A, batchB of B) and one bias row for all
// (isBiasBatch false).
constexpr MatmulConfig kSharedBias =
    GetMMConfig<MatmulConfigMode::CONFIG_NORM>(MatmulBatchParams{false, BatchMode::BATCH_LESS_THAN_L1, false});

extern "C" __global__ __cube__ void mm_batch_normal(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c,
                                                    TCubeTiling tiling, uint32_t batch_a,
                                                    uint32_t batch_b) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
                  Mt<TPosition::GM, CubeFormat::ND, half, false, LayoutMode::NORMAL>,
                  Mt<TPosition::GM, CubeFormat::ND, float, false, LayoutMode::NORMAL>,
                  Mt<TPosition::GM, CubeFormat::ND, float>, kSharedBias>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  mm.SetBias(Gm<float>(bias));
  mm.IterateBatch(Gm<float>(c), batch_a, batch_b, false);
  mm.End();
}

// int8 x int8 -> half through the dequantisation word(s): one for all of C, or one per
// column (`vector`).
extern "C" __global__ __cube__ void mm_dequant(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR words,
                                               TCubeTiling tiling, uint32_t vector) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, int8_t>, Mt<TPosition::GM, CubeFormat::ND, int8_t>,
                  Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, int32_t>,
                  CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  if (vector != 0) {
    mm.SetQuantVector(Gm<uint64_t>(words));
  } else {
    mm.SetQuantScalar(Gm<uint64_t>(words).GetValue(0));
  }
  mm.SetTensorA(Gm<int8_t>(a));
  mm.SetTensorB(Gm<int8_t>(b));
  mm.IterateAll(Gm<half>(c));
  mm.End();
}

// A copy callback that loads every A block (baseM x baseK) from the matrix at dataPtr
// instead of the Matmul's A, rows tilingPtr apart, into L1 as NZ.
__aicore__ inline void CopyAFromOther(const AscendC::LocalTensor<int8_t>& l1, const __gm__ void*,
                                      int row, int col, int useM, int useK, const uint64_t tilingPtr,
                                      const uint64_t dataPtr) {
  const int32_t ka = static_cast<int32_t>(tilingPtr);
  AscendC::GlobalTensor<half> src;
  src.SetGlobalBuffer(reinterpret_cast<__gm__ half*>(dataPtr));
  AscendC::Nd2NzParams p;
  p.ndNum = 1;
  p.nValue = useM;
  p.dValue = useK;
  p.srcNdMatrixStride = 0;
  p.srcDValue = ka;
  p.dstNzC0Stride = (useM + 15) / 16 * 16;
  p.dstNzNStride = 1;
  p.dstNzMatrixStride = 0;
  // Blocks are baseM x baseK; useM / useK of a tail block are smaller, so the full
  // block sizes come from the first block's (the test's shapes have no tails).
  AscendC::DataCopy(l1.ReinterpretCast<half>(), src[uint64_t(row) * useM * ka + uint64_t(col) * useK],
                    p);
}

extern "C" __global__ __cube__ void mm_copy_a_callback(GM_ADDR a, GM_ADDR other, GM_ADDR b,
                                                       GM_ADDR c, TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::GM, CubeFormat::ND, float>, Mt<TPosition::GM, CubeFormat::ND, float>,
                  CFG_NORM, AscendC::MatmulCallBackFunc<nullptr, CopyAFromOther, nullptr>>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetUserDefInfo(static_cast<uint64_t>(tiling.Ka));
  mm.SetSelfDefineData(reinterpret_cast<uint64_t>(other));
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  mm.IterateAll(Gm<float>(c));
  mm.End();
}

// The upper-triangular policy: blocks below the diagonal stay as they were.
extern "C" __global__ __cube__ void mm_triangle_upper(GM_ADDR a, GM_ADDR b, GM_ADDR c,
                                                      TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::GM, CubeFormat::ND, float>, Mt<TPosition::GM, CubeFormat::ND, float>,
                  CFG_NORM, AscendC::MatmulCallBackFunc<nullptr, nullptr, nullptr>,
                  AscendC::Impl::Detail::TrianUpperMatmulPolicy>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  mm.IterateAll(Gm<float>(c));
  mm.End();
}

// Sparse B (N x K/2 dense values, transposed) with its index matrix.
extern "C" __global__ __cube__ void mm_sparse(GM_ADDR a, GM_ADDR b, GM_ADDR index, GM_ADDR c,
                                              TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, int8_t>,
                  AscendC::SparseMatmulType<TPosition::GM, TPosition::GM, CubeFormat::ND, int8_t, true>,
                  Mt<TPosition::GM, CubeFormat::ND, int32_t>, Mt<TPosition::GM, CubeFormat::ND, int32_t>,
                  CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<int8_t>(a));
  mm.SetTensorB(Gm<int8_t>(b), true);
  mm.SetSparseIndex(Gm<uint8_t>(index));
  mm.IterateAll(Gm<int32_t>(c));
  mm.End();
}

// A in NZ, copied into L1 (TSCM) by the kernel; C in NZ (16 x 16 fractals).
extern "C" __global__ __cube__ void mm_tscm_nz(GM_ADDR a_nz, GM_ADDR b, GM_ADDR c_nz,
                                               TCubeTiling tiling) {
  AscendC::TPipe pipe;
  AscendC::Matmul<Mt<TPosition::TSCM, CubeFormat::NZ, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::GM, CubeFormat::NZ, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TSCM<TPosition::GM, 1> scm;
  pipe.InitBuffer(scm, 1, tiling.M * tiling.Ka * sizeof(half));
  AscendC::LocalTensor<half> l1 = scm.AllocTensor<half>();
  AscendC::DataCopy(l1, Gm<half>(a_nz), tiling.M * tiling.Ka);
  scm.EnQue(l1);
  l1 = scm.DeQue<half>();
  mm.SetTensorA(l1);
  mm.SetTensorB(Gm<half>(b));
  mm.IterateAll(Gm<float>(c_nz));
  mm.End();
  scm.FreeTensor(l1);
}

// C rows padded to 32 bytes (ND_ALIGN).
extern "C" __global__ __cube__ void mm_nd_align(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::GM, CubeFormat::ND_ALIGN, float>>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTail(tiling.M, tiling.N);  // the single-core shape is N rounded up to 16
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  mm.IterateAll(Gm<float>(c));
  mm.End();
}

// The kernel's own L0C: each block into a CO1 tensor (NZ), copied out element by
// element to C (row-major) here.
extern "C" __global__ __cube__ void mm_own_co1(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling tiling) {
  AscendC::TPipe pipe;
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::CO1, CubeFormat::NZ, float>>
      mm;
  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
  AscendC::TQue<TPosition::CO1, 1> co1;
  pipe.InitBuffer(co1, 1, tiling.baseM * tiling.baseN * sizeof(float));
  AscendC::LocalTensor<float> l0c = co1.AllocTensor<float>();
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  AscendC::GlobalTensor<float> gc = Gm<float>(c);
  const int32_t m_blocks = tiling.singleCoreM / tiling.baseM;
  int32_t i = 0;
  while (mm.Iterate(false, l0c)) {
    // iterateOrder 0: down M first.
    const int32_t mb = i % m_blocks, nb = i / m_blocks;
    for (int32_t r = 0; r < tiling.baseM; ++r) {
      for (int32_t j = 0; j < tiling.baseN; ++j) {
        gc.SetValue(uint64_t(mb * tiling.baseM + r) * tiling.N + nb * tiling.baseN + j,
                    l0c.GetValue(((j / 16) * tiling.baseM + r) * 16 + j % 16));
      }
    }
    ++i;
  }
  co1.FreeTensor(l0c);
  mm.End();
}

// int4 A and B (two to a byte, the even element in the low nibble), int32 C.
extern "C" __global__ __cube__ void mm_int4(GM_ADDR a, GM_ADDR b, GM_ADDR c, TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, AscendC::int4b_t>,
                  Mt<TPosition::GM, CubeFormat::ND, AscendC::int4b_t>,
                  Mt<TPosition::GM, CubeFormat::ND, int32_t>, Mt<TPosition::GM, CubeFormat::ND, int32_t>,
                  CFG_MDL>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<AscendC::int4b_t>(a));
  mm.SetTensorB(Gm<AscendC::int4b_t>(b));
  mm.IterateAll(Gm<int32_t>(c));
  mm.End();
}

// Channel split (float C in NZ fractals of 16 x 8) with ReLU on the way out.
constexpr MatmulConfig SplitReluConfig() {
  MatmulConfig cfg = CFG_NORM;
  cfg.isEnableChannelSplit = true;
  cfg.enableRelu = true;
  return cfg;
}
constexpr MatmulConfig kSplitRelu = SplitReluConfig();

extern "C" __global__ __cube__ void mm_split_relu(GM_ADDR a, GM_ADDR b, GM_ADDR c_nz,
                                                  TCubeTiling tiling) {
  AscendC::Matmul<Mt<TPosition::GM, CubeFormat::ND, half>, Mt<TPosition::GM, CubeFormat::ND, half>,
                  Mt<TPosition::GM, CubeFormat::NZ, float>, Mt<TPosition::GM, CubeFormat::ND, float>,
                  kSplitRelu>
      mm;
  REGIST_MATMUL_OBJ(nullptr, GetSysWorkSpacePtr(), mm, &tiling);
  mm.SetTensorA(Gm<half>(a));
  mm.SetTensorB(Gm<half>(b));
  mm.IterateAll(Gm<float>(c_nz));
  mm.End();
}

// z = x + y, then x = z * y, with the operators over whole tensors of n floats.
extern "C" __global__ __aicore__ void tensor_operators(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n) {
  AscendC::TPipe pipe;
  AscendC::TBuf<TPosition::VECCALC> buf;
  pipe.InitBuffer(buf, 3 * n * sizeof(float));
  AscendC::LocalTensor<float> all = buf.Get<float>();
  AscendC::LocalTensor<float> lx = all, ly = all[n], lz = all[2 * n];
  lx.SetSize(n);
  ly.SetSize(n);
  lz.SetSize(n);
  AscendC::DataCopy(lx, Gm<float>(x), n);
  AscendC::DataCopy(ly, Gm<float>(y), n);
  lz = lx + ly;
  lx = lz * ly;
  AscendC::DataCopy(Gm<float>(z), lz, n);
  AscendC::DataCopy(Gm<float>(x), lx, n);
}

NPUD_KERNEL_REGISTER_AS(mm_batch_bsngd, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_batch_normal, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_dequant, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_copy_a_callback, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_triangle_upper, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_sparse, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_tscm_nz, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_nd_align, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_own_co1, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_int4, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER_AS(mm_split_relu, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER(tensor_operators);
