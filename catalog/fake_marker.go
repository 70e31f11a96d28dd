//go:build fakemarker

package catalog

// FakeMarker is the param the e2e suite's fake SnowLuma reads its fault
// and tag markers from (e2e/fake.Marker). SnowLuma never reads it, so the
// released binary refuses it like any other unknown key (Action.Unknown);
// only the variant the e2e suite builds (-tags fakemarker, e2e/main_test.go)
// lets it through on every action, so that the suite can steer the fake
// through the real pipeline.
const FakeMarker = "_fake"

func init() { extraKeys = append(extraKeys, FakeMarker) }
