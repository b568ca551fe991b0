// sort_config.h: SortConfig, SortType and TopKMode, which the host's tiling functions
// (GetSortMaxMinTmpSize, TopKTilingFunc) and the kernels both name (kept apart so host
// tiling code needs no device header).
#ifndef NPUD_ASCENDC_SORT_CONFIG_H_
#define NPUD_ASCENDC_SORT_CONFIG_H_

namespace AscendC {

enum class SortType { RADIX_SORT = 0, MERGE_SORT };

struct SortConfig {
  SortType type = SortType::RADIX_SORT;
  bool isDescend = false;
  bool hasSrcIndex = false;
  bool hasDstIndex = false;
};
inline constexpr SortConfig DEFAULT_SORT_CONFIG{};

// TOPK_NSMALL: rows of exactly 32 elements, each with its own source indices.
enum class TopKMode {
  TOPK_NORMAL,
  TOPK_NSMALL,
};

}  // namespace AscendC

#endif  // NPUD_ASCENDC_SORT_CONFIG_H_
