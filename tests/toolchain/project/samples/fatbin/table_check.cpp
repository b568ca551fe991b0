// table_check <kernel object> [<name>:<args_size>:<type>...]
// Loads a kernel object as the npud executor does (dlopen + npud_kernel_table), prints
// one line per kernel, "<name>:<args_size>:<type>" (type 0 vector, 1 cube, 2 mix), and
// when expectations are given checks that the table is exactly those, in order.
#include <dlfcn.h>

#include <cstdio>
#include <string>
#include <vector>

#include "npud_kernel_abi.h"

int main(int argc, char** argv)
{
    if (argc < 2) {
        std::fprintf(stderr, "usage: table_check <kernel object> [<name>:<args_size>:<type>...]\n");
        return 2;
    }
    void* handle = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
    if (handle == nullptr) {
        std::printf("FAILED: dlopen %s: %s\n", argv[1], dlerror());
        return 1;
    }
    auto table = reinterpret_cast<NpudKernelTableFn>(dlsym(handle, NPUD_KERNEL_TABLE_SYMBOL));
    if (table == nullptr) {
        std::printf("FAILED: %s exports no %s\n", argv[1], NPUD_KERNEL_TABLE_SYMBOL);
        return 1;
    }
    size_t count = 0;
    const NpudKernelInfo* kernels = table(&count);
    std::vector<std::string> found;
    for (size_t i = 0; i < count; ++i) {
        found.push_back(std::string(kernels[i].name) + ":" + std::to_string(kernels[i].args_size) + ":" +
                        std::to_string(kernels[i].kernel_type));
        std::printf("%s\n", found.back().c_str());
    }
    if (argc == 2) return 0;
    const std::vector<std::string> expected(argv + 2, argv + argc);
    if (found != expected) {
        std::printf("FAILED: the kernel table of %s differs from the expected one\n", argv[1]);
        return 1;
    }
    return 0;
}
