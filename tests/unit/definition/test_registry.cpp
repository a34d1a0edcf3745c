#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "reactor/registry.hpp"

namespace reactor {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

Definition make_definition(const std::string& name, const std::string& fingerprint) {
  auto data = std::make_shared<DefinitionData>();
  data->name = name;
  data->fingerprint = fingerprint;
  return Definition(std::move(data));
}

TEST(RegistryTest, EmptyRegistryFindsNothing) {
  Registry registry;
  EXPECT_FALSE(registry.find("OrderSaga").has_value());
  EXPECT_THAT(registry.names(), IsEmpty());
}

TEST(RegistryTest, FindsWhatWasAdded) {
  Registry registry;
  const Definition order = make_definition("OrderSaga", "f1");
  registry.add(order);
  const std::optional<Definition> found = registry.find("OrderSaga");
  ASSERT_TRUE(found.has_value());
  EXPECT_EQ(found->data(), order.data());
  EXPECT_FALSE(registry.find("ordersaga").has_value());
}

TEST(RegistryTest, NamesAreSorted) {
  Registry registry;
  registry.add(make_definition("Payments", "p"));
  registry.add(make_definition("OrderSaga", "o"));
  registry.add(make_definition("Shipping", "s"));
  EXPECT_THAT(registry.names(), ElementsAre("OrderSaga", "Payments", "Shipping"));
}

TEST(RegistryTest, ReAddingTheSameGraphIsANoOp) {
  Registry registry;
  const Definition first = make_definition("OrderSaga", "same");
  registry.add(first);
  EXPECT_NO_THROW(registry.add(make_definition("OrderSaga", "same")));
  EXPECT_THAT(registry.names(), ElementsAre("OrderSaga"));
  EXPECT_EQ(registry.find("OrderSaga")->data(), first.data());
}

TEST(RegistryTest, ADifferentGraphUnderATakenNameIsRejected) {
  Registry registry;
  const Definition first = make_definition("OrderSaga", "v1");
  registry.add(first);
  try {
    registry.add(make_definition("OrderSaga", "v2"));
    FAIL() << "expected DefinitionError";
  } catch (const DefinitionError& e) {
    EXPECT_STREQ(e.what(), "reactor 'OrderSaga' is already registered");
  }
  EXPECT_EQ(registry.find("OrderSaga")->fingerprint(), "v1");
}

TEST(RegistryTest, ConcurrentAddsAndFindsAreSafe) {
  Registry registry;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&registry, t] {
      for (int i = 0; i < 50; ++i) {
        registry.add(make_definition("R" + std::to_string(i), "f" + std::to_string(i)));
        (void)registry.find("R" + std::to_string((i + t) % 50));
        (void)registry.names();
      }
    });
  }
  for (std::thread& th : threads) th.join();
  EXPECT_EQ(registry.names().size(), 50u);
}

}  // namespace
}  // namespace reactor
