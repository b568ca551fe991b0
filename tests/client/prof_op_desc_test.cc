// The records of model subscriptions: 80 bytes, signed, read back field by
// field; a changed byte or a cut record is refused; names and types are
// read once.

#include "client/core/prof_op_desc.h"

#include <cstring>
#include <string>
#include <vector>

#include "common/acl_status.h"
#include "gtest/gtest.h"

namespace npud::client {
namespace {

TEST(ProfOpDescTest, RecordsReadBackWhatWasWritten) {
  std::vector<ProfOpDesc> records = {MakeOpDesc(7, 0, 11, "Add", "add_custom", 1000, 1500),
                                     MakeOpDesc(7, 1, 12, "Mul", "mul_custom", 2000, 2600)};
  const size_t bytes = records.size() * sizeof(ProfOpDesc);
  ASSERT_EQ(OpDescCount(records.data(), bytes).value(), 2u);
  const ProfOpDesc second = OpDescAt(records.data(), bytes, 1).value();
  EXPECT_EQ(second.model_id, 7u);
  EXPECT_EQ(second.device_id, 1u);
  EXPECT_EQ(second.thread_id, 12u);
  EXPECT_EQ(second.start, 2000u);
  EXPECT_EQ(second.end, 2600u);
  EXPECT_EQ(second.duration, 600u);
  EXPECT_NE(records[0].op_index, records[1].op_index);
  EXPECT_FALSE(OpDescAt(records.data(), bytes, 2).ok());
}

TEST(ProfOpDescTest, ChangedOrCutRecordsAreRefused) {
  ProfOpDesc record = MakeOpDesc(1, 0, 1, "Add", "a", 10, 20);
  EXPECT_EQ(ToAclCode(OpDescCount(&record, sizeof(record) - 1).status()), kAclInvalidParam);
  EXPECT_EQ(ToAclCode(OpDescCount(nullptr, sizeof(record)).status()), kAclInvalidParam);
  ProfOpDesc changed = record;
  changed.end += 1;
  EXPECT_EQ(ToAclCode(OpDescCount(&changed, sizeof(changed)).status()), kAclInvalidParam);
  EXPECT_TRUE(OpDescCount(&record, sizeof(record)).ok());
}

TEST(ProfOpDescTest, NamesAndTypesAreReadOnce) {
  const ProfOpDesc record = MakeOpDesc(1, 0, 1, "Add", "add_custom_0", 10, 20);
  EXPECT_EQ(PeekOpText(record.op_index, OpText::kName).value(), "add_custom_0");
  EXPECT_EQ(TakeOpText(record.op_index, OpText::kName).value(), "add_custom_0");
  EXPECT_FALSE(TakeOpText(record.op_index, OpText::kName).ok());
  EXPECT_EQ(TakeOpText(record.op_index, OpText::kType).value(), "Add");
  EXPECT_FALSE(PeekOpText(record.op_index, OpText::kType).ok());
}

}  // namespace
}  // namespace npud::client
