// Host-side pieces of the Matmul family: where batches of each layout start
// (lib/matmul/batch_layout.h), the Coord / Layout offsets kernels compute tiles with
// (npud_ascendc/layout.h), and what the host tiling records for batches and L1
// operands (tiling/tiling_api.h).
#include <gtest/gtest.h>

#include "lib/matmul/batch_layout.h"
#include "npud_ascendc/layout.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace {

using AscendC::npud_matmul::BatchAxes;
using AscendC::npud_matmul::BatchOperand;

TEST(MatmulLayoutTest, BatchesStartWhereTheirLayoutPutsThem) {
  const BatchAxes x{2, 8, 3, 2, 16};  // B, S, N, G, D
  // BSNGD: six heads (N*G) of 16 per row of 96; batch 7 is head 1 of the second B.
  auto v = BatchOperand(LayoutMode::BSNGD, x, 7, 8, 16);
  EXPECT_EQ(v.start, 1u * 8 * 96 + 1 * 16);
  EXPECT_EQ(v.ld, 96u);
  // SBNGD: rows are all B*N*G heads apart.
  v = BatchOperand(LayoutMode::SBNGD, x, 7, 8, 16);
  EXPECT_EQ(v.start, 7u * 16);
  EXPECT_EQ(v.ld, 2u * 96);
  // BNGS1S2: whole S x D matrices one after the other.
  v = BatchOperand(LayoutMode::BNGS1S2, x, 5, 8, 16);
  EXPECT_EQ(v.start, 5u * 8 * 16);
  EXPECT_EQ(v.ld, 16u);
  // NORMAL: rows x cols matrices, or a given stride.
  v = BatchOperand(LayoutMode::NORMAL, x, 3, 10, 12);
  EXPECT_EQ(v.start, 3u * 120);
  EXPECT_EQ(v.ld, 12u);
  EXPECT_EQ(BatchOperand(LayoutMode::NORMAL, x, 3, 10, 12, 200).start, 600u);
}

TEST(MatmulLayoutTest, LayoutMapsCoordinatesToOffsets) {
  const auto layout = AscendC::MakeLayout(AscendC::MakeShape(30, 40), AscendC::MakeStride(40, 1));
  const AscendC::Coord<int64_t, int64_t> at = AscendC::MakeCoord(int64_t{3}, int64_t{7});
  EXPECT_EQ(layout(at), 3 * 40 + 7);
  EXPECT_EQ(std::get<1>(at), 7);
  const auto strided =
      AscendC::MakeLayout(AscendC::MakeShape(4, 5, 6), AscendC::MakeStride(100, 10, 2));
  EXPECT_EQ(strided(AscendC::MakeCoord(1, 2, 3)), 100 + 20 + 6);
  EXPECT_EQ(AscendC::Crd2Idx(AscendC::MakeCoord(2, 0, 1), strided), 200 + 2);
  EXPECT_EQ(AscendC::Crd2Idx(at, AscendC::MakeShape(30, 40), AscendC::MakeStride(1, 30)),
            3 + 7 * 30);
}

matmul_tiling::MultiCoreMatmulTiling Api(int32_t cores) {
  matmul_tiling::MultiCoreMatmulTiling api(
      *platform_ascendc::PlatformAscendCManager::GetInstance());
  api.SetDim(cores);
  api.SetBType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetCType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT);
  return api;
}

TEST(MatmulLayoutTest, TilingRecordsBatchLayouts) {
  auto api = Api(1);
  api.SetAType(matmul_tiling::TPosition::GM, matmul_tiling::CubeFormat::ND,
               matmul_tiling::DataType::DT_FLOAT16);
  api.SetShape(32, 256, 64);
  api.SetOrgShape(32, 256, 64);
  api.SetALayout(2, 32, 1, 3, 64);
  api.SetBLayout(2, 256, 1, 3, 64);
  api.SetCLayout(2, 32, 1, 3, 256);
  api.SetBatchNum(3);
  TCubeTiling t;
  ASSERT_EQ(api.GetTiling(t), 0);
  EXPECT_EQ(t.ALayoutInfoB, 2);
  EXPECT_EQ(t.ALayoutInfoS, 32);
  EXPECT_EQ(t.ALayoutInfoG, 3);
  EXPECT_EQ(t.BLayoutInfoS, 256);
  EXPECT_EQ(t.CLayoutInfoS1, 32);
  EXPECT_EQ(t.CLayoutInfoS2, 256);
  EXPECT_EQ(t.BatchNum, 3);
}

// A at TSCM is whole in every core's L1: the cores do not split M.
TEST(MatmulLayoutTest, TscmOperandKeepsItsAxisWhole) {
  for (auto pos : {matmul_tiling::TPosition::GM, matmul_tiling::TPosition::TSCM}) {
    auto api = Api(24);
    api.SetAType(pos, matmul_tiling::CubeFormat::NZ, matmul_tiling::DataType::DT_FLOAT16);
    api.SetShape(2048, 64, 64);  // on GM the cores split the long M
    api.SetOrgShape(2048, 64, 64);
    TCubeTiling t;
    ASSERT_EQ(api.GetTiling(t), 0);
    if (pos == matmul_tiling::TPosition::TSCM) {
      EXPECT_EQ(t.singleCoreM, 2048);
    } else {
      EXPECT_LT(t.singleCoreM, 2048);
    }
  }
}

}  // namespace
