// Mixed-mode kernels: the device functions and the host functions that
// launch them with <<<>>> live in one source, built by ascendc_library.
// Each block writes its slot and reports it with device printf; a second
// kernel reads the slots back and prints them.

#include "kernel_operator.h"

extern "C" __global__ __aicore__ void WriteSlots(__gm__ int32_t* slots, int32_t base) {
  const int32_t value = base + static_cast<int32_t>(block_idx);
  slots[block_idx] = value;
  AscendC::printf("block %d wrote %d\n", static_cast<int>(block_idx), value);
}

extern "C" __global__ __aicore__ void ReadSlots(__gm__ int32_t* slots) {
  AscendC::printf("block %d read %d\n", static_cast<int>(block_idx), slots[block_idx]);
}

// Host launchers (declared in write_read_kernels.h).
int32_t LaunchWrite(uint32_t blocks, void* stream, int32_t* slots, int32_t base) {
  return static_cast<int32_t>(WriteSlots<<<blocks, nullptr, stream>>>(slots, base));
}

int32_t LaunchRead(uint32_t blocks, void* stream, int32_t* slots) {
  return static_cast<int32_t>(ReadSlots<<<blocks, nullptr, stream>>>(slots));
}
