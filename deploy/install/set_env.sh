# Source this file to use the npud CANN-style install tree:
#   source <prefix>/set_env.sh
# It exports what CANN's own set_env.sh exports, pointing at this tree.
_npud_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")" && pwd)"
export ASCEND_HOME_PATH="${_npud_root}"
export ASCEND_INSTALL_PATH="${_npud_root}"
export ASCEND_TOOLKIT_HOME="${_npud_root}"
export LD_LIBRARY_PATH="${_npud_root}/lib64${LD_LIBRARY_PATH:+:${LD_LIBRARY_PATH}}"
export PATH="${_npud_root}/bin${PATH:+:${PATH}}"
export CMAKE_PREFIX_PATH="${_npud_root}/lib64/cmake${CMAKE_PREFIX_PATH:+:${CMAKE_PREFIX_PATH}}"
unset _npud_root
