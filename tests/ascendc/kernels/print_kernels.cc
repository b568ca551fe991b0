// Device printf and DumpTensor.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void hello_blocks()
{
    AscendC::printf("Hello from block %ld of %ld\n", AscendC::GetBlockIdx(), AscendC::GetBlockNum());
}

// The runtime's DeviceRead: print the value of this block's slot.
extern "C" __global__ __aicore__ void print_slot(__gm__ int* devPtr)
{
    int32_t idx = block_idx;
    int value = devPtr[idx];
    AscendC::printf("Destination data: %d\n", value);
}

extern "C" __global__ __aicore__ void print_formats(half h, float f, __gm__ uint8_t* p)
{
    char name[8] = {'b', 'l', 'o', 'c', 'k', '\0'};
    AscendC::printf("plain text, no arguments\n");
    AscendC::printf("%d %i %u %x %lld %llu %c|%5.2f|%-4d|%s\n", -7, 8, 9u, 255u, -1234567890123LL,
                    18446744073709551615ULL, 'q', 3.14159f, 42, name);
    AscendC::PRINTF("half %f float %F ptr %p\n", h, f, p);
    AscendC::printf("no newline");
}

// One printf longer than the formatting buffer on the stack.
extern "C" __global__ __aicore__ void print_long(uint32_t length)
{
    char text[2049];
    for (uint32_t i = 0; i < length && i < 2048; ++i) text[i] = static_cast<char>('a' + i % 26);
    text[length < 2048 ? length : 2048] = '\0';
    AscendC::printf("[%s]\n", text);
}

extern "C" __global__ __aicore__ void dump_local(GM_ADDR x)
{
    AscendC::TPipe pipe;
    AscendC::TQue<AscendC::QuePosition::VECIN, 1> queue;
    pipe.InitBuffer(queue, 1, 64);
    AscendC::GlobalTensor<half> xGm;
    xGm.SetGlobalBuffer((__gm__ half*)x, 16);
    AscendC::LocalTensor<half> local = queue.AllocTensor<half>();
    AscendC::DataCopy(local, xGm, 16);
    AscendC::DumpTensor(local, 5, 4);
    queue.FreeTensor(local);
}

NPUD_KERNEL_REGISTER(hello_blocks);
NPUD_KERNEL_REGISTER(print_slot);
NPUD_KERNEL_REGISTER(print_formats);
NPUD_KERNEL_REGISTER(print_long);
NPUD_KERNEL_REGISTER(dump_local);
