package upload

import "testing"

// links makes no links on Windows. Creating a symlink needs a privilege
// most accounts lack, Go has no call that makes a junction, and Wine 8's
// CreateSymbolicLink reports success and creates nothing, so a link test
// here would pass for the wrong reason (a missing file). The escape
// through a link is proven by the Wine e2e test instead
// (TestWindowsBinaryUploadRefusesEscapes): a directory symlink made on the
// Linux side looks to the Windows binary like a plain directory, as a
// junction looks to Go since 1.23, and only the final-path check catches
// it.
func links(*testing.T, string, string) (escapes []escapeCase, inside string) { return nil, "" }
