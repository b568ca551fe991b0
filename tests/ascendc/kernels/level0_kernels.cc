// Level-0 vector instructions (npud_ascendc/repeat.h, vector_mask.h): masks, repeats,
// strides and counter mode, on 256-element half or float buffers in the UB.
#include "kernel_operator.h"

using namespace AscendC;

namespace {

constexpr uint32_t kElems = 256;

template <class T>
struct Buffers {
  LocalTensor<T> a, b, out;
};

// a, b from GM; out from GM too (so lanes an instruction leaves alone keep what the
// test put there).
template <class T>
Buffers<T> Load(__gm__ T* a, __gm__ T* b, __gm__ T* out) {
  GlobalTensor<T> ga, gb, gout;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  Buffers<T> bufs{ub.Alloc<T, kElems>(), ub.Alloc<T, kElems>(), ub.Alloc<T, kElems>()};
  DataCopy(bufs.a, ga, kElems);
  DataCopy(bufs.b, gb, kElems);
  DataCopy(bufs.out, gout, kElems);
  return bufs;
}

template <class T>
void Store(__gm__ T* out, const LocalTensor<T>& t) {
  GlobalTensor<T> g;
  g.SetGlobalBuffer(out);
  DataCopy(g, t, kElems);
}

}  // namespace

// Upstream's stride example, one repeat: half, mask 128, {1, 2, 1, 8, 16, 8}: out block j
// = a block 2j + b block j for j < 8; out's second half stays.
extern "C" __global__ __aicore__ void add_strided(__gm__ half* a, __gm__ half* b, __gm__ half* out) {
  Buffers<half> t = Load(a, b, out);
  Add(t.out, t.a, t.b, 128, 1, {1, 2, 1, 8, 16, 8});
  Store(out, t.out);
}

// Bit mask {8, 2}: lanes 3 and 65 of each of 2 repeats.
extern "C" __global__ __aicore__ void mul_bits(__gm__ half* a, __gm__ half* b, __gm__ half* out) {
  Buffers<half> t = Load(a, b, out);
  uint64_t mask[2] = {8, 2};
  Mul(t.out, t.a, t.b, mask, 2, {1, 1, 1, 8, 8, 8});
  Store(out, t.out);
}

// Counter mode, the mask set outside the instruction: 130 float elements of Adds
// (3 repeats of 64) with default strides, then back to normal mode.
extern "C" __global__ __aicore__ void adds_counter(__gm__ float* a, __gm__ float* b,
                                                   __gm__ float* out) {
  Buffers<float> t = Load(a, b, out);
  SetMaskCount();
  SetVectorMask<float, MaskMode::COUNTER>(0, 130);
  Adds<float, false>(t.out, t.a, 1.0f, MASK_PLACEHOLDER, 1, {1, 1, 8, 8});
  SetMaskNorm();
  ResetMask();
  Store(out, t.out);
}

// Normal mode, the mask from SetVectorMask(len): first 10 lanes of 2 repeats of
// float Exp; then Duplicate's level-0 form writes 7.0 into lanes 0..31 of repeat 0
// of the second half of out (block stride 1, repeat stride 8).
extern "C" __global__ __aicore__ void exp_len_mask(__gm__ float* a, __gm__ float* b,
                                                   __gm__ float* out) {
  Buffers<float> t = Load(a, b, out);
  SetVectorMask<float>(10);
  Exp<float, false>(t.out, t.a, MASK_PLACEHOLDER, 2, {1, 1, 8, 8});
  ResetMask();
  Duplicate(t.out[128], 7.0f, 32, 1, 1, 8);
  Store(out, t.out);
}

// FusedMulAdd (out = a * out + b) over 256 floats in 4 repeats; Axpy from half into
// float (out += a_half * 2) is tested by axpy_mixed.
extern "C" __global__ __aicore__ void fused_mul_add(__gm__ float* a, __gm__ float* b,
                                                    __gm__ float* out) {
  Buffers<float> t = Load(a, b, out);
  FusedMulAdd(t.out, t.a, t.b, 64, 4, {1, 1, 1, 8, 8, 8});
  Store(out, t.out);
}

extern "C" __global__ __aicore__ void axpy_mixed(__gm__ half* a, __gm__ float* out) {
  GlobalTensor<half> ga;
  GlobalTensor<float> gout;
  ga.SetGlobalBuffer(a);
  gout.SetGlobalBuffer(out);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> la = ub.Alloc<half, kElems>();
  LocalTensor<float> lout = ub.Alloc<float, kElems>();
  DataCopy(la, ga, kElems);
  DataCopy(lout, gout, kElems);
  Axpy(lout, la, half(2.0f), 64, 4, {1, 1, 8, 4});
  DataCopy(gout, lout, kElems);
}

// Shifts of int16: left of a negative keeps the sign, right with rounding.
extern "C" __global__ __aicore__ void shifts(__gm__ int16_t* a, __gm__ int16_t* left,
                                             __gm__ int16_t* right) {
  GlobalTensor<int16_t> ga, gl, gr;
  ga.SetGlobalBuffer(a);
  gl.SetGlobalBuffer(left);
  gr.SetGlobalBuffer(right);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<int16_t> la = ub.Alloc<int16_t, 128>();
  LocalTensor<int16_t> ll = ub.Alloc<int16_t, 128>();
  LocalTensor<int16_t> lr = ub.Alloc<int16_t, 128>();
  DataCopy(la, ga, 128);
  ShiftLeft(ll, la, int16_t(3), 128);
  ShiftRight(lr, la, int16_t(5), 128, 1, {1, 1, 8, 8}, true);
  DataCopy(gl, ll, 128);
  DataCopy(gr, lr, 128);
}

// A repeat stride that walks off the end of the source.
extern "C" __global__ __aicore__ void add_out_of_range(__gm__ float* a, __gm__ float* b,
                                                       __gm__ float* out) {
  Buffers<float> t = Load(a, b, out);
  Add(t.out, t.a, t.b, 64, 4, {1, 1, 1, 8, 16, 8});
}

NPUD_KERNEL_REGISTER(add_strided);
NPUD_KERNEL_REGISTER(mul_bits);
NPUD_KERNEL_REGISTER(adds_counter);
NPUD_KERNEL_REGISTER(exp_len_mask);
NPUD_KERNEL_REGISTER(fused_mul_add);
NPUD_KERNEL_REGISTER(axpy_mixed);
NPUD_KERNEL_REGISTER(shifts);
NPUD_KERNEL_REGISTER(add_out_of_range);

// Level-0 reductions of 256 floats (4 repeats of 64): per block sums and maxima, per
// repeat maxima with their indices, pair sums; out gets them at 0, 32, 64 and 128.
// `sum` receives the level-0 ReduceSum of all, GetReduceRepeatSumSpr of the count form
// and the ReduceRepeat register maximum with its index.
extern "C" __global__ __aicore__ void reductions(__gm__ float* a, __gm__ float* out,
                                                 __gm__ float* sum) {
  GlobalTensor<float> ga, gout, gsum;
  ga.SetGlobalBuffer(a);
  gout.SetGlobalBuffer(out);
  gsum.SetGlobalBuffer(sum);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<float> la = ub.Alloc<float, kElems>();
  LocalTensor<float> lout = ub.Alloc<float, kElems>();
  LocalTensor<float> lsum = ub.Alloc<float, 8>();
  LocalTensor<float> work = ub.Alloc<float, 64>();
  DataCopy(la, ga, kElems);
  DataCopy(lout, gout, kElems);
  ReduceDataBlock<ReduceType::SUM, float, float>(lout, la, 64, 4, 1, 1, 8);  // out[0..32)
  ReduceDataBlock<ReduceType::MAX, float, float>(lout[32], la, 64, 4, 1, 1, 8);
  ReduceRepeat<ReduceType::MAX, float, float>(lout[64], la, 64, 4, 1, 1, 8);  // value, index
  ReducePairElem<ReduceType::SUM, float, float>(lout[128], la, 64, 2, 1, 1, 8);  // 2 x 32 pairs
  ReduceSum(lsum, la, work, 64, 4, 8);
  float max_value = 0, max_index = 0;
  GetReduceRepeatMaxMinSpr(max_value, max_index);
  lsum.SetValue(2, max_value);
  lsum.SetValue(3, max_index);
  ReduceSum(lsum[4], la, work, 256);
  lsum.SetValue(1, GetReduceRepeatSumSpr<float>());
  DataCopy(gout, lout, kElems);
  DataCopy(gsum, lsum, 8);
}

NPUD_KERNEL_REGISTER(reductions);

// half -> int8_t: AddReluCast (level-2, 128) and MulCast (level-0, one repeat of 128
// with the int8 destination's repeat stride of 4 blocks); int32_t -> half: AddDeqRelu
// with scale 0.5; float -> int32_t: Cast level-0 with CAST_FLOOR over 64.
extern "C" __global__ __aicore__ void compound_casts(__gm__ half* a, __gm__ half* b,
                                                     __gm__ int8_t* sums, __gm__ int8_t* products,
                                                     __gm__ int32_t* ia, __gm__ half* deq,
                                                     __gm__ float* f, __gm__ int32_t* floors) {
  GlobalTensor<half> ga, gb, gdeq;
  GlobalTensor<int8_t> gsums, gproducts;
  GlobalTensor<int32_t> gia, gfloors;
  GlobalTensor<float> gf;
  ga.SetGlobalBuffer(a);
  gb.SetGlobalBuffer(b);
  gdeq.SetGlobalBuffer(deq);
  gsums.SetGlobalBuffer(sums);
  gproducts.SetGlobalBuffer(products);
  gia.SetGlobalBuffer(ia);
  gfloors.SetGlobalBuffer(floors);
  gf.SetGlobalBuffer(f);
  LocalMemAllocator<Hardware::UB> ub;
  LocalTensor<half> la = ub.Alloc<half, 128>(), lb = ub.Alloc<half, 128>();
  LocalTensor<int8_t> lsums = ub.Alloc<int8_t, 128>(), lproducts = ub.Alloc<int8_t, 128>();
  LocalTensor<int32_t> lia = ub.Alloc<int32_t, 64>(), lfloors = ub.Alloc<int32_t, 64>();
  LocalTensor<half> ldeq = ub.Alloc<half, 64>();
  LocalTensor<float> lf = ub.Alloc<float, 64>();
  DataCopy(la, ga, 128);
  DataCopy(lb, gb, 128);
  DataCopy(lia, gia, 64);
  DataCopy(lf, gf, 64);
  AddReluCast(lsums, la, lb, 128);
  MulCast(lproducts, la, lb, 128, 1, {1, 1, 1, 4, 8, 8});
  SetDeqScale(half(0.5f));
  AddDeqRelu(ldeq, lia, lia, 64);
  Cast(lfloors, lf, RoundMode::CAST_FLOOR, 64, 1, {1, 1, 8, 8});
  for (uint32_t i = 0; i < 128; ++i) {
    gsums.SetValue(i, lsums.GetValue(i));
    gproducts.SetValue(i, lproducts.GetValue(i));
  }
  DataCopy(gdeq, ldeq, 64);
  DataCopy(gfloors, lfloors, 64);
}

NPUD_KERNEL_REGISTER(compound_casts);
