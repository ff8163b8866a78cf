// The checked family contract (core/common/family_contract.h): its
// detectors tell a missing, misspelt or ill-typed member from a present one,
// and every family states its optional hooks by flag. (That check_family
// refuses to compile a broken family is what the detectors feed; each real
// family header already ends with it.)
#include <gtest/gtest.h>

#include <vector>

#include "core/bloom/bloom_family.h"
#include "core/cms/cms_family.h"
#include "core/common/family_contract.h"
#include "core/counting_bloom/counting_bloom_family.h"
#include "core/cuckoo/cuckoo_family.h"
#include "core/ddsketch/ddsketch_family.h"
#include "core/ell/ell_family.h"
#include "core/hll/hll_family.h"
#include "core/kll/kll_family.h"
#include "core/theta/theta_family.h"
#include "core/theta/theta_intersect_family.h"
#include "core/topk/topk_family.h"

namespace sketch::state {
namespace {

// A family that says it defers adds but misspells settle: the mistake the
// old SFINAE detection turned into "settling off" without a word.
struct MisspeltSettle : FamilyDefaults {
  static constexpr bool kDefersAdds = true;
  struct Growth {
    size_t size;
  };
  static bool has_pending(const uint8_t*, size_t) { return false; }
  static bool setle(uint8_t*, Growth*) { return true; }
};
static_assert(MisspeltSettle::kDefersAdds && !contract::DeclaresSettle<MisspeltSettle>::value,
              "check_hooks sees kDefersAdds without settle");

// settle declared, the flag forgotten: refused the other way round.
struct ForgottenFlag : FamilyDefaults {
  struct Growth {
    size_t size;
  };
  static bool has_pending(const uint8_t*, size_t) { return false; }
  static bool settle(uint8_t*, Growth*) { return true; }
};
static_assert(!ForgottenFlag::kDefersAdds && contract::DeclaresSettle<ForgottenFlag>::value,
              "check_hooks sees settle without kDefersAdds");

// Right names, wrong types: plan_growth returning void (as it did before
// growth could be refused), parse returning bool.
struct IllTyped : FamilyDefaults {
  struct View {
    size_t size;
  };
  struct Growth {
    size_t size;
  };
  static bool parse(const uint8_t*, size_t, View*) { return true; }
  static void plan_growth(const View&, Growth*) {}
};
static_assert(!contract::HasParse<IllTyped>::value && !contract::HasPlanGrowth<IllTyped>::value,
              "the detectors compare the exact return type");
static_assert(contract::HasViewSize<IllTyped>::value && contract::HasGrowthSize<IllTyped>::value);

// write_merged without kMergesStored: refused like the other hooks.
struct UnflaggedStoredMerge : FamilyDefaults {
  struct View {
    size_t size;
  };
  static void write_merged(const View&, const View&, uint8_t*) {}
};
static_assert(!UnflaggedStoredMerge::kMergesStored &&
                  contract::DeclaresWriteMerged<UnflaggedStoredMerge>::value &&
                  contract::HasWriteMerged<UnflaggedStoredMerge>::value,
              "check_hooks sees write_merged without kMergesStored");

// A View that owns memory cannot live in a frame an ERROR longjmps out of.
struct OwningView {
  std::vector<int> owned;
};
static_assert(!contract::trivially_destructible<OwningView>());

TEST(FamilyContract, EveryFamilyStatesItsHooksByFlag) {
  EXPECT_TRUE(cuckoo::Family::kDefersAdds);
  EXPECT_FALSE(bloom::Family::kDefersAdds);  // drains its queue in write_stored and merge
  EXPECT_FALSE(counting_bloom::Family::kDefersAdds);
  EXPECT_TRUE(topk::Family::kHasWorkingView);
  EXPECT_TRUE(theta::Family::kHasWorkingView);
  EXPECT_FALSE(hll::Family::kHasWorkingView);
  EXPECT_FALSE(kll::Family::kHasWorkingView);
  EXPECT_FALSE(kll::Family::kDefersAdds);
  EXPECT_FALSE(theta::IntersectFamily::kAddsElements);
  EXPECT_TRUE(theta::Family::kMergesStored);
  EXPECT_FALSE(theta::IntersectFamily::kMergesStored);
  EXPECT_FALSE(topk::Family::kMergesStored);
  EXPECT_TRUE(check_family<hll::Family>() && check_family<cms::Family>() &&
              check_family<bloom::Family>() && check_family<ddsketch::Family>() &&
              check_family<topk::Family>() && check_family<theta::Family>() &&
              check_family<counting_bloom::Family>() && check_family<cuckoo::Family>() &&
              check_family<theta::IntersectFamily>());
  EXPECT_FALSE(ell::Family::kHasWorkingView);
  EXPECT_TRUE(check_family<ell::Family>());
}

}  // namespace
}  // namespace sketch::state
