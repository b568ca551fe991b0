// Host launchers of write_read_kernels.cpp; 0 means the launch was queued.
#ifndef WRITE_READ_KERNELS_H_
#define WRITE_READ_KERNELS_H_

#include <cstdint>

int32_t LaunchWrite(uint32_t blocks, void* stream, int32_t* slots, int32_t base);
int32_t LaunchRead(uint32_t blocks, void* stream, int32_t* slots);

#endif  // WRITE_READ_KERNELS_H_
