# bisheng is part of the install tree and checked by its own tests; CMake's
# try-compile of a test program would need a daemon-free link, so it is skipped.
set(CMAKE_ASC_COMPILER_WORKS 1 CACHE INTERNAL "")
