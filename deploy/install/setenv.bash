# Source this file to use the npud CANN-style install tree (the
# <prefix>/bin/setenv.bash that CANN samples source).
_npud_root="$(cd "$(dirname "${BASH_SOURCE[0]:-$0}")/.." && pwd)"
source "${_npud_root}/set_env.sh"
unset _npud_root
