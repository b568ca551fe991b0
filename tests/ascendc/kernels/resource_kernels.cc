// Kernels for memory management and data movement around the vector core: TBufPool
// (built in and EXTERN_IMPL_BUFPOOL), tensors at raw addresses of L1 aliasing a
// TPipe's buffers, DataCopy with SliceInfo, ListTensorDesc, Cast to int4b_t and a GM
// flag polled across DataCacheCleanAndInvalid. Checked by resource_test.cc.
#include "kernel_operator.h"
#include "kernel_operator_list_tensor_intf.h"

using namespace AscendC;

namespace {

// A kernel's own pool, the reference sample's way: buffers placed one after another.
class OwnPool {
 public:
  OwnPool() { Init(); }
  template <class Queue>
  bool InitBuffer(Queue& que, uint8_t num, uint32_t len) {
    len = (len + 31) / 32 * 32;
    auto handle = GetBufHandle(GetCurBufSize());
    const uint32_t at = GetCurAddr();
    que.InitStartBufHandle(handle, num, len);
    for (uint32_t i = 0; i < num; ++i) que.InitBufHandle(this, i, handle, at + i * len, len);
    SetCurAddr(at + num * len);
    SetCurBufSize(static_cast<uint8_t>(GetCurBufSize() + num));
    return true;
  }
  EXTERN_IMPL_BUFPOOL(OwnPool, TPosition::VECCALC, 8);
};

}  // namespace

// z[0, n) = x + y through queues of pool p1; then, from pool p2 over the same memory,
// z[n, 2n) = what p2's first buffer holds before anything is written to it (p1's
// first buffer, x), and z[2n, 3n) = 2 * x through a queue of a custom pool. n floats,
// a multiple of 8.
extern "C" __global__ __vector__ void pool_stages(__gm__ float* x, __gm__ float* y,
                                                  __gm__ float* z, uint32_t n) {
  TPipe pipe;
  GlobalTensor<float> xGm, yGm, zGm;
  xGm.SetGlobalBuffer(x);
  yGm.SetGlobalBuffer(y);
  zGm.SetGlobalBuffer(z);
  const uint32_t bytes = n * sizeof(float);
  TBufPool<TPosition::VECCALC> p1, p2;
  pipe.InitBufPool(p1, 3 * bytes);
  pipe.InitBufPool(p2, 3 * bytes, p1);
  TQue<TPosition::VECIN, 1> in0, in1;
  TQue<TPosition::VECOUT, 1> out;
  p1.InitBuffer(in0, 1, bytes);
  p1.InitBuffer(in1, 1, bytes);
  p1.InitBuffer(out, 1, bytes);
  LocalTensor<float> a = in0.AllocTensor<float>(), b = in1.AllocTensor<float>();
  DataCopy(a, xGm, n);
  DataCopy(b, yGm, n);
  LocalTensor<float> c = out.AllocTensor<float>();
  Add(c, a, b, static_cast<int32_t>(n));
  DataCopy(zGm, c, n);
  in0.FreeTensor(a);
  in1.FreeTensor(b);
  out.FreeTensor(c);
  p1.Reset();
  TQue<TPosition::VECIN, 1> again;
  p2.InitBuffer(again, 1, bytes);
  LocalTensor<float> d = again.AllocTensor<float>();
  DataCopy(zGm[n], d, n);
  again.FreeTensor(d);
  p2.Reset();

  OwnPool own;
  pipe.InitBufPool(own, bytes);
  TQue<TPosition::VECCALC, 1> q;
  own.InitBuffer(q, 1, bytes);
  LocalTensor<float> e = q.AllocTensor<float>();
  DataCopy(e, xGm, n);
  Muls(e, e, 2.0f, static_cast<int32_t>(n));
  DataCopy(zGm[2 * n], e, n);
  q.FreeTensor(e);
}

// A TPipe's first A1 buffer and a tensor at A1 address 0 are the same bytes: out[0, n)
// is what the raw tensor reads after the queue's buffer was filled from x. n halves,
// a multiple of 16.
extern "C" __global__ __cube__ void l1_alias(__gm__ half* x, __gm__ half* out, uint32_t n) {
  TPipe pipe;
  GlobalTensor<half> xGm, oGm;
  xGm.SetGlobalBuffer(x);
  oGm.SetGlobalBuffer(out);
  TQue<TPosition::A1, 1> q;
  pipe.InitBuffer(q, 1, n * sizeof(half));
  LocalTensor<half> t = q.AllocTensor<half>();
  DataCopy(t, xGm, n);
  LocalTensor<half> raw(TPosition::A1, 0, n);
  DataCopy(oGm, raw, n);
  q.FreeTensor(t);
}

// The reference's example of DataCopy with SliceInfo: from a 3 x 87 float source two
// bursts of 24 (from 16, 7 apart) of rows 0 and 2 into a 2 x 48 local tensor, and
// that back out whole.
extern "C" __global__ __vector__ void slice_copy(__gm__ float* src, __gm__ float* dst) {
  GlobalTensor<float> sGm, dGm;
  sGm.SetGlobalBuffer(src);
  dGm.SetGlobalBuffer(dst);
  SliceInfo srcInfo[] = {{16, 70, 7, 3, 87}, {0, 2, 1, 1, 3}};
  SliceInfo dstInfo[] = {{0, 47, 0, 3, 48}, {0, 1, 0, 1, 2}};
  LocalTensor<float> local(TPosition::VECIN, 0, 96);
  DataCopy(local, sGm, dstInfo, srcInfo, 2);
  DataCopy(dGm, local, dstInfo, dstInfo, 2);
}

// Reads a tensor list: out = {size, then per tensor dim, index, shape..., data[0]}.
extern "C" __global__ __vector__ void list_tensors(__gm__ uint8_t* list, __gm__ int64_t* out) {
  ListTensorDesc desc(reinterpret_cast<__gm__ void*>(list));
  uint32_t at = 0;
  out[at++] = desc.GetSize();
  for (uint32_t i = 0; i < desc.GetSize(); ++i) {
    uint64_t shape[8] = {};
    TensorDesc<int32_t> t;
    t.SetShapeAddr(shape);
    desc.GetDesc(t, i);
    out[at++] = static_cast<int64_t>(t.GetDim());
    out[at++] = static_cast<int64_t>(t.GetIndex());
    for (uint32_t d = 0; d < t.GetDim(); ++d) out[at++] = static_cast<int64_t>(t.GetShape(d));
    out[at++] = desc.GetDataPtr<int32_t>(i)[0];
    out[at++] = t.GetDataObj().GetValue(1);
  }
}

// Cast of 128 halves to int4b_t (rounding up), one repeat, the level-0 form: 64
// bytes out.
extern "C" __global__ __vector__ void cast_to_int4(__gm__ half* x, __gm__ uint8_t* out) {
  GlobalTensor<half> xGm;
  GlobalTensor<uint8_t> oGm;
  xGm.SetGlobalBuffer(x);
  oGm.SetGlobalBuffer(out);
  LocalTensor<half> in(TPosition::VECIN, 0, 128);
  LocalTensor<uint8_t> bytes(TPosition::VECOUT, 1024, 64);
  DataCopy(in, xGm, 128);
  LocalTensor<int4b_t> packed = bytes.ReinterpretCast<int4b_t>();
  Cast<int4b_t, half>(packed, in, RoundMode::CAST_CEIL, 128, 1, {1, 1, 2, 8});
  DataCopy(oGm, bytes, 64);
}

// Blocks 1.. write value[i] = i * 10 after some work and then raise flag[i * 16];
// block 0 polls the flags (reading GM between DataCacheCleanAndInvalid calls, as the
// reference's gm_by_dcache sample) and writes the values' sum to result.
extern "C" __global__ __vector__ void poll_flags(__gm__ int32_t* value, __gm__ int32_t* flag,
                                                 __gm__ int32_t* result) {
  const int32_t idx = static_cast<int32_t>(GetBlockIdx());
  GlobalTensor<int32_t> flagGm;
  flagGm.SetGlobalBuffer(flag);
  if (idx > 0) {
    volatile uint64_t spin = 0;
    for (uint32_t i = 0; i < 2000000; ++i) spin = spin + i;
    value[idx] = idx * 10;
    flagGm.SetValue(idx * 16, 1);
    DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(
        flagGm[idx * 16]);
    return;
  }
  const int32_t blocks = static_cast<int32_t>(GetBlockNum());
  bool waiting = true;
  while (waiting) {
    waiting = false;
    for (int32_t i = 1; i < blocks; ++i) {
      DataCacheCleanAndInvalid<int32_t, CacheLine::SINGLE_CACHE_LINE, DcciDst::CACHELINE_OUT>(
          flagGm[i * 16]);
      if (flagGm.GetValue(i * 16) != 1) {
        waiting = true;
        break;
      }
    }
  }
  int32_t sum = 0;
  for (int32_t i = 1; i < blocks; ++i) sum += value[i];
  result[0] = sum;
}

NPUD_KERNEL_REGISTER(pool_stages);
NPUD_KERNEL_REGISTER_AS(l1_alias, NPUD_CORE_TYPE_CUBE);
NPUD_KERNEL_REGISTER(slice_copy);
NPUD_KERNEL_REGISTER(list_tensors);
NPUD_KERNEL_REGISTER(cast_to_int4);
NPUD_KERNEL_REGISTER(poll_flags);
