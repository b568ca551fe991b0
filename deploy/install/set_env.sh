# Source this file to use the npud CANN-style install tree:
#   source <prefix>/set_env.sh
# It exports what CANN's own set_env.sh exports, pointing at this tree.
_npud_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
export ASCEND_HOME_PATH="${_npud_root}"
export ASCEND_INSTALL_PATH="${_npud_root}"
export ASCEND_TOOLKIT_HOME="${_npud_root}"
# <arch>-linux/devlib holds the driver's library, libascend_hal.so, which
# programs link there as in CANN; with no driver below npud, it is also where
# they load it from.
export LD_LIBRARY_PATH="${_npud_root}/lib64:${_npud_root}/$(uname -m)-linux/devlib${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
export PATH="${_npud_root}/bin${PATH:+:${PATH}}"
export CMAKE_PREFIX_PATH="${_npud_root}/lib64/cmake${CMAKE_PREFIX_PATH:+:${CMAKE_PREFIX_PATH}}"
unset _npud_root
