// Package accesstest lets the tests of every store that keeps its files
// private (package access) open a path to other accounts and check that
// one is private, the same way on each platform, and names the words a
// refusal says there.
package accesstest
