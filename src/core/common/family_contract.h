// The contract between the shared state mechanism (working_state.h) and a
// sketch family, as code: every family's traits type derives from
// FamilyDefaults, says which optional hooks it has by flags, and its header
// ends with
//
//   static_assert(state::check_family<Family>());
//
// which names every required member that is missing or has another type, and
// every optional hook whose flag and declaration disagree. Before this check
// the optional hooks were found by SFINAE: a typo in `settle` silently turned
// settling off, and the stored form and merges then dropped queued values.
//
// Required of every family (the signatures working_state.h and
// pg/common/aggregate_state.h call; bytes_of and is_stored have defaults in
// FamilyDefaults for a View with .data and .encoding):
//
//   View                                       parsed read-only look at a sketch; .size its bytes
//   const uint8_t* bytes_of(const View&)       the sketch's bytes, header first
//   Status parse(const uint8_t*, size_t, View*)  any encoding, structure checked
//   bool is_working(const uint8_t*, size_t)    O(1): a working state, safe to write
//   bool is_stored(const View&)
//   size_t working_size(const View&), void write_working(const View&, uint8_t*)
//   size_t stored_size(const View&),  void write_stored(const View&, uint8_t*)
//   MergePlan { bool in_place; size_t size; ... }
//   Status plan_merge(const View&, const View&, MergePlan*)
//   void merge(uint8_t* a_buffer, const View&, const View&, const MergePlan&, uint8_t* dst)
//
// Required unless kAddsElements is false (a family whose aggregate only
// combines sketches, such as theta's intersection):
//
//   Element, Growth { size_t size; ... }
//   bool add(uint8_t*, Element&, Growth*)
//   Status plan_growth(const View&, Growth*)
//   void grow(const View&, const Growth&, uint8_t* dst)
//
// Optional, each behind its flag (declared without the flag is an error too):
//
//   kHasWorkingView: View working_view(const uint8_t*, size_t)
//   kDefersAdds:     bool has_pending(const uint8_t*, size_t)
//                    bool settle(uint8_t*, Growth*)
//   kMergesStored:   size_t merged_size(const View&, const View&)
//                    void write_merged(const View&, const View&, uint8_t*)
//
// Trivial destructors. Core code runs inside PostgreSQL backends, where an
// ERROR is a longjmp: the allocator the mechanism calls (palloc, refusing a
// size) and the callbacks a family calls back into (topk's and cms's item
// text, which run a type's output function) may raise one while core
// template frames are live. A longjmp skips destructors, which is harmless
// only while every object in those frames has none to run. So View, Element,
// Growth, MergePlan and Status must be trivially destructible; a family that
// put a std::vector in its View would otherwise leak (or worse) on the
// first ERROR, and no test that leaves those frames by throwing would see it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/common/status.h"
#include "core/common/validation.h"

namespace sketch::state {

// The base of every family's traits type: the optional hooks are off
// until a family turns them on (and then must declare them).
struct FamilyDefaults {
  // Adds may be queued (behind a prefetch) and finished later: the
  // mechanism settles every state before its stored form or a merge reads
  // it. A family that drains its own queue inside write_stored and merge
  // (bloom, counting_bloom) does not defer in this sense.
  static constexpr bool kDefersAdds = false;
  // parse() of a working state is O(capacity); working_view() gives the
  // view of a state is_working() accepted in O(1) (topk, theta).
  static constexpr bool kHasWorkingView = false;
  // The family's aggregate adds elements (false: it only combines sketches).
  static constexpr bool kAddsElements = true;
  // Two stored views merge straight into a stored result (theta: one pass
  // over two sorted hash arrays), so the binary union (<f>_union(a, b),
  // ||) needs no scratch working copy: merged_size() and write_merged()
  // then give the bytes the mechanism's merge and stored form would.
  static constexpr bool kMergesStored = false;

  // What nearly every View is: its bytes at .data, and an encoding whose
  // kStored is the stored form. A family whose View differs declares its own.
  template <class View>
  static const uint8_t* bytes_of(const View& v) {
    return v.data;
  }
  template <class View>
  static bool is_stored(const View& v) {
    return v.encoding == decltype(v.encoding)::kStored;
  }
};

// The View and the mechanism's parse of a family: the family's own parser
// at Validation::kStructure, since the mechanism reads states of any
// encoding. A family derives from it beside FamilyDefaults:
//
//   struct Family : state::FamilyDefaults, state::ParsesStructure<View, parse> {
template <class ViewT, Status (*kParse)(const uint8_t*, size_t, Validation, ViewT*)>
struct ParsesStructure {
  using View = ViewT;

  static Status parse(const uint8_t* data, size_t len, View* out) {
    return kParse(data, len, Validation::kStructure, out);
  }
};

// The stored form of a family whose own stored_size(View) and
// write_stored(View, dst) are the mechanism's (nearly every family's):
//
//   struct Family : ..., state::StoredBy<View, stored_size, write_stored> {
template <class View, size_t (*kStoredSize)(const View&),
          void (*kWriteStored)(const View&, uint8_t*)>
struct StoredBy {
  static size_t stored_size(const View& v) { return kStoredSize(v); }
  static void write_stored(const View& v, uint8_t* dst) { kWriteStored(v, dst); }
};

namespace contract {

// One detector per member: true when the expression compiles and has
// exactly the expected type. Substitution failure (a missing member, other
// argument types) makes it false instead of a hard error, so that every
// missing member gets its own message below.
#define SKETCH_CONTRACT_MEMBER(name, expected, ...)                                       \
  template <class F, class = void>                                                       \
  struct name : std::false_type {};                                                      \
  template <class F>                                                                     \
  struct name<F, std::enable_if_t<std::is_same_v<decltype(__VA_ARGS__), expected>>>      \
      : std::true_type {};

template <class F>
using ViewOf = typename F::View;

template <class F, class = void>
struct HasView : std::false_type {};
template <class F>
struct HasView<F, std::void_t<typename F::View>> : std::true_type {};

template <class F, class = void>
struct HasElement : std::false_type {};
template <class F>
struct HasElement<F, std::void_t<typename F::Element>> : std::true_type {};

// Arguments of the detectors' calls, which are never evaluated (declared
// only, never defined).
const uint8_t* const_bytes();
uint8_t* bytes();

SKETCH_CONTRACT_MEMBER(HasViewSize, size_t, std::declval<const ViewOf<F>&>().size)
SKETCH_CONTRACT_MEMBER(HasBytesOf, const uint8_t*, F::bytes_of(std::declval<const ViewOf<F>&>()))
SKETCH_CONTRACT_MEMBER(HasParse, Status,
                       F::parse(const_bytes(), size_t{0}, std::declval<ViewOf<F>*>()))
SKETCH_CONTRACT_MEMBER(HasIsWorking, bool, F::is_working(const_bytes(), size_t{0}))
SKETCH_CONTRACT_MEMBER(HasIsStored, bool, F::is_stored(std::declval<const ViewOf<F>&>()))
SKETCH_CONTRACT_MEMBER(HasWorkingSize, size_t, F::working_size(std::declval<const ViewOf<F>&>()))
SKETCH_CONTRACT_MEMBER(HasWriteWorking, void,
                       F::write_working(std::declval<const ViewOf<F>&>(), bytes()))
SKETCH_CONTRACT_MEMBER(HasStoredSize, size_t, F::stored_size(std::declval<const ViewOf<F>&>()))
SKETCH_CONTRACT_MEMBER(HasWriteStored, void,
                       F::write_stored(std::declval<const ViewOf<F>&>(), bytes()))

SKETCH_CONTRACT_MEMBER(HasPlanInPlace, bool, std::declval<typename F::MergePlan&>().in_place)
SKETCH_CONTRACT_MEMBER(HasPlanSize, size_t, std::declval<typename F::MergePlan&>().size)
SKETCH_CONTRACT_MEMBER(HasPlanMerge, Status,
                       F::plan_merge(std::declval<const ViewOf<F>&>(),
                                     std::declval<const ViewOf<F>&>(),
                                     std::declval<typename F::MergePlan*>()))
SKETCH_CONTRACT_MEMBER(HasMerge, void,
                       F::merge(bytes(), std::declval<const ViewOf<F>&>(),
                                std::declval<const ViewOf<F>&>(),
                                std::declval<const typename F::MergePlan&>(), bytes()))

SKETCH_CONTRACT_MEMBER(HasGrowthSize, size_t, std::declval<typename F::Growth&>().size)
SKETCH_CONTRACT_MEMBER(HasAdd, bool,
                       F::add(bytes(), std::declval<typename F::Element&>(),
                              std::declval<typename F::Growth*>()))
SKETCH_CONTRACT_MEMBER(HasPlanGrowth, Status,
                       F::plan_growth(std::declval<const ViewOf<F>&>(),
                                      std::declval<typename F::Growth*>()))
SKETCH_CONTRACT_MEMBER(HasGrow, void,
                       F::grow(std::declval<const ViewOf<F>&>(),
                               std::declval<const typename F::Growth&>(), bytes()))

SKETCH_CONTRACT_MEMBER(HasMergedSize, size_t,
                       F::merged_size(std::declval<const ViewOf<F>&>(),
                                      std::declval<const ViewOf<F>&>()))
SKETCH_CONTRACT_MEMBER(HasWriteMerged, void,
                       F::write_merged(std::declval<const ViewOf<F>&>(),
                                       std::declval<const ViewOf<F>&>(), bytes()))
SKETCH_CONTRACT_MEMBER(HasWorkingViewHook, ViewOf<F>, F::working_view(const_bytes(), size_t{0}))
SKETCH_CONTRACT_MEMBER(HasPendingHook, bool, F::has_pending(const_bytes(), size_t{0}))
SKETCH_CONTRACT_MEMBER(HasSettleHook, bool,
                       F::settle(bytes(), std::declval<typename F::Growth*>()))

// Declared at all, whatever the type: to catch a hook declared without its flag.
#define SKETCH_CONTRACT_NAMED(name, member)                                 \
  template <class F, class = void>                                          \
  struct name : std::false_type {};                                         \
  template <class F>                                                        \
  struct name<F, std::void_t<decltype(&F::member)>> : std::true_type {};

SKETCH_CONTRACT_NAMED(DeclaresWorkingView, working_view)
SKETCH_CONTRACT_NAMED(DeclaresHasPending, has_pending)
SKETCH_CONTRACT_NAMED(DeclaresSettle, settle)
SKETCH_CONTRACT_NAMED(DeclaresWriteMerged, write_merged)

#undef SKETCH_CONTRACT_MEMBER
#undef SKETCH_CONTRACT_NAMED

template <class T>
constexpr bool trivially_destructible() {
  return std::is_trivially_destructible_v<T>;
}

// One required member: `member` names its detector, `signature` the
// declaration the message asks for.
#define SKETCH_REQUIRE(member, signature) \
  static_assert(member<F>::value, "sketch family contract: missing or ill-typed " signature)

// One type whose objects live in frames an ERROR may longjmp out of.
#define SKETCH_REQUIRE_TRIVIAL(type)                                                  \
  static_assert(trivially_destructible<typename F::type>(),                           \
                "sketch family contract: " #type " must be trivially destructible "   \
                "(an ERROR longjmps through the frames that hold it)")

// The members that depend on Element and Growth, checked only for a family
// that adds elements (so that the missing types give one message each).
template <class F>
constexpr bool check_adds() {
  static_assert(HasElement<F>::value, "sketch family contract: missing type Element");
  static_assert(HasGrowthSize<F>::value,
                "sketch family contract: missing type Growth with a size_t member size");
  if constexpr (HasElement<F>::value && HasGrowthSize<F>::value) {
    SKETCH_REQUIRE(HasAdd, "static bool add(uint8_t*, Element&, Growth*)");
    SKETCH_REQUIRE(HasPlanGrowth, "static Status plan_growth(const View&, Growth*)");
    SKETCH_REQUIRE(HasGrow, "static void grow(const View&, const Growth&, uint8_t*)");
    SKETCH_REQUIRE_TRIVIAL(Element);
    SKETCH_REQUIRE_TRIVIAL(Growth);
  }
  return true;
}

template <class F>
constexpr bool check_hooks() {
  static_assert(F::kHasWorkingView == DeclaresWorkingView<F>::value,
                "sketch family contract: working_view is declared without kHasWorkingView, "
                "or kHasWorkingView is set without working_view");
  if constexpr (F::kHasWorkingView)
    SKETCH_REQUIRE(HasWorkingViewHook, "static View working_view(const uint8_t*, size_t)");
  static_assert(F::kDefersAdds == DeclaresHasPending<F>::value,
                "sketch family contract: has_pending is declared without kDefersAdds, "
                "or kDefersAdds is set without has_pending");
  static_assert(F::kDefersAdds == DeclaresSettle<F>::value,
                "sketch family contract: settle is declared without kDefersAdds, "
                "or kDefersAdds is set without settle");
  static_assert(F::kMergesStored == DeclaresWriteMerged<F>::value,
                "sketch family contract: write_merged is declared without kMergesStored, "
                "or kMergesStored is set without write_merged");
  if constexpr (F::kMergesStored) {
    SKETCH_REQUIRE(HasMergedSize, "static size_t merged_size(const View&, const View&)");
    SKETCH_REQUIRE(HasWriteMerged, "static void write_merged(const View&, const View&, uint8_t*)");
  }
  static_assert(!F::kDefersAdds || F::kAddsElements,
                "sketch family contract: only a family that adds elements can defer them");
  if constexpr (F::kDefersAdds && F::kAddsElements) {
    SKETCH_REQUIRE(HasPendingHook, "static bool has_pending(const uint8_t*, size_t)");
    SKETCH_REQUIRE(HasSettleHook, "static bool settle(uint8_t*, Growth*)");
  }
  return true;
}

}  // namespace contract

// True, or a compile error naming each missing or ill-typed member of F.
template <class F>
constexpr bool check_family() {
  using namespace contract;
  static_assert(std::is_base_of_v<FamilyDefaults, F>,
                "sketch family contract: the traits type must derive from "
                "state::FamilyDefaults");
  static_assert(HasView<F>::value, "sketch family contract: missing type View");
  if constexpr (HasView<F>::value) {
    static_assert(HasViewSize<F>::value,
                  "sketch family contract: View needs a size_t member size (its bytes)");
    SKETCH_REQUIRE(HasBytesOf, "static const uint8_t* bytes_of(const View&)");
    SKETCH_REQUIRE(HasParse, "static Status parse(const uint8_t*, size_t, View*)");
    SKETCH_REQUIRE(HasIsWorking, "static bool is_working(const uint8_t*, size_t)");
    SKETCH_REQUIRE(HasIsStored, "static bool is_stored(const View&)");
    SKETCH_REQUIRE(HasWorkingSize, "static size_t working_size(const View&)");
    SKETCH_REQUIRE(HasWriteWorking, "static void write_working(const View&, uint8_t*)");
    SKETCH_REQUIRE(HasStoredSize, "static size_t stored_size(const View&)");
    SKETCH_REQUIRE(HasWriteStored, "static void write_stored(const View&, uint8_t*)");
    static_assert(HasPlanInPlace<F>::value && HasPlanSize<F>::value,
                  "sketch family contract: missing type MergePlan with members "
                  "bool in_place and size_t size");
    SKETCH_REQUIRE(HasPlanMerge, "static Status plan_merge(const View&, const View&, MergePlan*)");
    SKETCH_REQUIRE(HasMerge, "static void merge(uint8_t*, const View&, const View&, "
                             "const MergePlan&, uint8_t*)");
    SKETCH_REQUIRE_TRIVIAL(View);
    if constexpr (HasPlanInPlace<F>::value)
      SKETCH_REQUIRE_TRIVIAL(MergePlan);
    if constexpr (F::kAddsElements) check_adds<F>();
    check_hooks<F>();
  }
  return true;
}

#undef SKETCH_REQUIRE
#undef SKETCH_REQUIRE_TRIVIAL

// The mechanism's own frames hold a Status beside the family's types.
static_assert(std::is_trivially_destructible_v<Status>,
              "Status must be trivially destructible (an ERROR longjmps past it)");

}  // namespace sketch::state
