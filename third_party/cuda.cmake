# The CUDA toolkit (nvcc, the CUDA runtime, CUB, cooperative groups): not a Debian package but the one stated
# prerequisite. Included from the top-level CMakeLists.txt, because CMake wants a language enabled in the
# directory that holds every target using it.
#
# Architectures: the GPU's own when one is present at configure time, otherwise Hopper (sm_90), the card
# redlab's reference figures come from. Override with -DCMAKE_CUDA_ARCHITECTURES=..., or -DREDLAB_GPU_TARGETS=course
# for a binary that runs the catalog on every GPU a course meets (the package, scripts/dev package): machine code
# for Turing (sm_75: T4, RTX 20), Ampere (sm_80: A100; sm_86: RTX 30), Ada (sm_89: RTX 40) and Hopper (sm_90), and
# with CUDA 12.8 or later Blackwell (sm_100: B200; sm_120: RTX 50), plus PTX of the newest, which the driver
# compiles for any later card. (Older cards than Turing: CUDA 13 no longer compiles for them.)
if(NOT REDLAB_CUDA)
  return()
endif()
if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "redlab: no CUDA compiler (nvcc) found. Install the CUDA toolkit (12.4 to 13.x; nvcc in "
                      "/usr/local/cuda/bin or on PATH), or build without it: -DREDLAB_CUDA=OFF gives the CPU "
                      "emulator only (scripts/dev does that by itself when there is no nvcc).")
endif()
set(REDLAB_GPU_TARGETS "" CACHE STRING "course: the catalog for every GPU a course meets (Turing to Blackwell); empty: this machine's GPU, or sm_90")
if(REDLAB_GPU_TARGETS STREQUAL "course")
  execute_process(COMMAND ${CMAKE_CUDA_COMPILER} --version OUTPUT_VARIABLE _redlab_nvcc_version)
  string(REGEX MATCH "release ([0-9]+\\.[0-9]+)" _redlab_release "${_redlab_nvcc_version}")
  if(CMAKE_MATCH_1 VERSION_GREATER_EQUAL 12.8)
    set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120)
  else()
    set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90)
  endif()
elseif(REDLAB_GPU_TARGETS)
  message(FATAL_ERROR "redlab: REDLAB_GPU_TARGETS is 'course' or empty, not '${REDLAB_GPU_TARGETS}'")
endif()
if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE _redlab_cc RESULT_VARIABLE _redlab_smi ERROR_QUIET)
  if(_redlab_smi EQUAL 0 AND _redlab_cc MATCHES "[0-9]")
    set(CMAKE_CUDA_ARCHITECTURES native)
  else()
    set(CMAKE_CUDA_ARCHITECTURES 90)
  endif()
endif()
enable_language(CUDA)
# The oldest toolkit redlab is built and checked with (Debian 13's). Debian 12's own, 11.8, lacks the driver's
# library calls (cuLibraryLoadData) that load a student's kernel file.
if(CMAKE_CUDA_COMPILER_VERSION VERSION_LESS 12.4)
  message(FATAL_ERROR "redlab: nvcc ${CMAKE_CUDA_COMPILER_VERSION} (${CMAKE_CUDA_COMPILER}) is older than CUDA 12.4, "
                      "the oldest toolkit redlab builds with. Install 12.4 or later (NVIDIA's, in /usr/local/cuda), "
                      "or build without it: -DREDLAB_CUDA=OFF gives the CPU emulator only.")
endif()
set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no CUDA20 for nvcc; the device code needs C++17
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
find_package(CUDAToolkit REQUIRED)
message(STATUS "redlab: CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")

# nvcc's host compiler can be an older GCC than the C++ compiler (Debian 13: its nvcc 12.4 uses g++-13, its g++ is
# 14). The C++ compiler links redlab, and the libstdc++ it finds must be its own, the newer one, which also serves
# the objects the older GCC compiled: nvcc's GCC library folders are dropped from the CUDA objects' link folders.
foreach(_redlab_dir IN LISTS CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES)
  if(_redlab_dir MATCHES "/gcc/" AND NOT _redlab_dir IN_LIST CMAKE_CXX_IMPLICIT_LINK_DIRECTORIES)
    list(REMOVE_ITEM CMAKE_CUDA_IMPLICIT_LINK_DIRECTORIES "${_redlab_dir}")
    message(STATUS "redlab: nvcc's host compiler libraries (${_redlab_dir}) are not the C++ compiler's: left out of links")
  endif()
endforeach()
