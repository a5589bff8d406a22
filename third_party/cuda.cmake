# The CUDA toolkit (nvcc, the CUDA runtime, CUB, cooperative groups): not a Debian package but the one stated
# prerequisite. Included from the top-level CMakeLists.txt, because CMake wants a language enabled in the
# directory that holds every target using it.
#
# Architectures: the GPU's own when one is present at configure time, otherwise Hopper (sm_90), the card
# redlab's reference figures come from. Override with -DCMAKE_CUDA_ARCHITECTURES=...
if(NOT REDLAB_CUDA)
  return()
endif()
if(NOT DEFINED CMAKE_CUDA_COMPILER AND EXISTS /usr/local/cuda/bin/nvcc)
  set(CMAKE_CUDA_COMPILER /usr/local/cuda/bin/nvcc)
endif()
include(CheckLanguage)
check_language(CUDA)
if(NOT CMAKE_CUDA_COMPILER)
  message(FATAL_ERROR "redlab: no CUDA compiler (nvcc) found. Install the CUDA toolkit (12.x or 13.x; nvcc in "
                      "/usr/local/cuda/bin or on PATH), or build without it: -DREDLAB_CUDA=OFF gives the CPU "
                      "emulator only (scripts/dev does that by itself when there is no nvcc).")
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
set(CMAKE_CUDA_STANDARD 17)  # CMake 3.25 knows no CUDA20 for nvcc; the device code needs C++17
set(CMAKE_CUDA_STANDARD_REQUIRED ON)
find_package(CUDAToolkit REQUIRED)
message(STATUS "redlab: CUDA ${CUDAToolkit_VERSION}, architectures ${CMAKE_CUDA_ARCHITECTURES}")
