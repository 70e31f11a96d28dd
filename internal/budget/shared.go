package budget

// The budgets every server on this machine shares for one QQ account.
// Every MCP host session starts a server of its own, and a budget kept in
// one process's memory lets two of them (or one restarted) send twice what
// the account may. So the state lives in a file per account, and each
// step (Take, Go, Refund, Snapshot) runs the in-process store's own logic
// on it under an exclusive lock of a file beside it: read, step, write
// (a temporary file renamed over the old one), unlock. The operating
// system drops the lock of a process that dies mid-step, and the rename
// leaves the state whole, old or new, so nothing is ever left locked or
// half written.
//
// A state that cannot be read fails closed: it is moved aside and started
// again as spent (one refill interval of waiting for the next send), with
// a warning, never unpaced and never a crash.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/gofrs/flock"

	"github.com/snowluma/snowluma-mcp/internal/access"
	"github.com/snowluma/snowluma-mcp/internal/config"
	"github.com/snowluma/snowluma-mcp/internal/fault"
)

// Shared is the Store of one account's budgets in a state directory.
type Shared struct {
	limits config.SendPace
	clock  Clock
	dir    string
	log    io.Writer
	// account names the QQ account; it is asked once, when the first step
	// needs it, and asked again only after it failed.
	account func() (string, error)

	mu   sync.Mutex
	path string
	// alone paces this process's sends while the account cannot be
	// named (SnowLuma unreachable, or refusing the token): those sends
	// will meet the same failure, which their result then names, and
	// they are still paced, within this process.
	alone  *Local
	warned bool
	// refused is why the state directory cannot be used, found before
	// the first step (Refuse); every step then fails with it.
	refused error
	// lockWait bounds each step's wait for the lock (LockWait; tests
	// shorten it).
	lockWait time.Duration
}

// errNoAccount marks a step that could not name the account.
var errNoAccount = errors.New("the account is not known")

// NewShared returns the store of the account that account names, kept in
// dir, on limits and clock; warnings go to log.
func NewShared(dir string, account func() (string, error), sp config.SendPace, clock Clock, log io.Writer) *Shared {
	alone := NewLocal(sp, clock)
	alone.seq = 1 << 62 // its charge names never meet the shared state's
	return &Shared{limits: sp, clock: clock, dir: dir, log: log, account: account, alone: alone, lockWait: LockWait}
}

// LockWait bounds how long a step waits for the state's lock. A step holds
// it for one read and one write of a small file, milliseconds, and sleeps
// out a send's wait after letting go; a lock held for this long is held by
// a server stuck in a step or by a process that holds a lock file it put
// there, and waiting on would hang every send without a word. It is wall
// time, not the budgets' clock: the lock is held in real time.
const LockWait = 10 * time.Second

// lockRetry is how often a waiting step tries the lock again.
const lockRetry = 5 * time.Millisecond

// stateVersion is the format of the state file.
const stateVersion = 1

// maxState bounds what is read of a state file: a few hundred targets'
// records at most, so anything near this is not a state this server wrote.
const maxState = 16 << 20

// ledger is the state file: Local's state, spelled out.
type ledger struct {
	Version int                   `json:"v"`
	Seq     uint64                `json:"seq"`
	Account bucketFile            `json:"account"`
	Targets map[string]bucketFile `json:"targets,omitempty"`
	// Rules are the limits the servers sharing the state were configured
	// with, and when each was last used: the strictest applies to all.
	Rules []ruleFile `json:"rules,omitempty"`
}

// ruleFile is one server's configured limits.
type ruleFile struct {
	Target  config.Budget `json:"target"`
	Account config.Budget `json:"account"`
	Seen    time.Time     `json:"seen"`
}

// ruleLife is how long a server's limits keep applying after its last
// send: a server that went away stops deciding, but not while a host may
// still be using it.
const ruleLife = 24 * time.Hour

// strictest registers this server's limits among rules (dropping those
// unused for ruleLife) and returns them with the limits that apply:
// per budget, the smallest burst and the longest refill of any. added says
// this server's limits were not among them yet.
//
// A server with pacing off has no limits of its own: it records its sends
// under those of the others (the defaults when there are none).
func (s *Shared) strictest(rules []ruleFile, now time.Time) (out []ruleFile, eff config.SendPace, added bool) {
	own := ruleFile{Target: s.limits.Target, Account: s.limits.Account, Seen: now}
	out = []ruleFile{own}
	eff, added = s.limits, true
	if s.limits.Off {
		out, added = nil, false
		eff = config.SendPace{Target: config.Budget{Burst: 1 << 30}, Account: config.Budget{Burst: 1 << 30}}
		found := false
		for _, r := range rules {
			if now.Sub(r.Seen) <= ruleLife {
				out, found = append(out, r), true
				eff.Target, eff.Account = stricter(eff.Target, r.Target), stricter(eff.Account, r.Account)
			}
		}
		if !found {
			eff.Target, eff.Account = config.DefaultTargetBudget, config.DefaultAccountBudget
		}
		return out, eff, false
	}
	for _, r := range rules {
		if r.Target == own.Target && r.Account == own.Account {
			added = false
			continue
		}
		if now.Sub(r.Seen) > ruleLife {
			continue
		}
		out = append(out, r)
		eff.Target = stricter(eff.Target, r.Target)
		eff.Account = stricter(eff.Account, r.Account)
	}
	return out, eff, added
}

func stricter(a, b config.Budget) config.Budget {
	if b.Burst < 1 || b.Every <= 0 {
		return a
	}
	return config.Budget{Burst: min(a.Burst, b.Burst), Every: max(a.Every, b.Every)}
}

type bucketFile struct {
	Base   time.Time    `json:"base,omitzero"`
	TAT    time.Time    `json:"tat,omitzero"`
	Record []chargeFile `json:"record,omitempty"`
}

type chargeFile struct {
	ID uint64    `json:"id"`
	At time.Time `json:"at"`
}

func (b *bucket) file() bucketFile {
	f := bucketFile{Base: b.base, TAT: b.tat}
	for _, c := range b.record {
		f.Record = append(f.Record, chargeFile{ID: c.id, At: c.at})
	}
	return f
}

func (f bucketFile) bucket() *bucket {
	b := &bucket{base: f.Base, tat: f.TAT}
	for _, c := range f.Record {
		b.record = append(b.record, charge{id: c.ID, at: c.At})
	}
	return b
}

// Path is the account's state file, once the account is known (empty
// before).
func (s *Shared) Path() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.path
}

// resolve is the state file of the account, asking for the account the
// first time. The directory is checked at every step, not once: one opened
// to other accounts after the first send refuses the sends from then on,
// and one removed is made again.
func (s *Shared) resolve() (string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.refused != nil {
		return "", s.refused
	}
	if s.path != "" {
		return s.path, private.Dir(s.dir)
	}
	uin, err := s.account()
	if err != nil {
		if !s.warned {
			s.warned = true
			fmt.Fprintf(s.log, "snowluma-mcp: %v; until it is named, this server paces its sends by itself, apart from the account's other servers\n", err)
		}
		return "", errNoAccount
	}
	if uin == "" || strings.Trim(uin, "0123456789") != "" {
		return "", fmt.Errorf("SnowLuma named the account %q, which is not a QQ number", uin)
	}
	if err := private.Dir(s.dir); err != nil {
		return "", err
	}
	s.path = filepath.Join(s.dir, "budget-"+uin+".json")
	return s.path, nil
}

// Refuse makes every step fail, saying detail and fix: the reading of the
// settings found the state directory unusable. Sends are then refused as
// a configuration failure, never paced against a budget nobody keeps.
func (s *Shared) Refuse(detail, fix string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.refused = fmt.Errorf("%s; to fix it: %s", detail, fix)
}

// step runs f on the account's state under its lock, and writes the state
// back when write is set. A state that cannot be had at all (the account
// unknown, the directory unusable) is the error; the caller fails closed.
func (s *Shared) step(write bool, f func(l *Local)) error {
	path, err := s.resolve()
	if errors.Is(err, errNoAccount) {
		f(s.alone)
		return nil
	}
	if err != nil {
		return err
	}
	if err := access.Prepare(path + ".lock"); err != nil {
		return err
	}
	lock, err := s.lock(path + ".lock")
	if err != nil {
		return err
	}
	defer lock.Close()
	l, rules, rebuilt := s.load(path)
	rules, eff, added := s.strictest(rules, s.clock.Now())
	l.limits = eff
	f(l)
	if !write && !rebuilt && !added {
		return nil
	}
	return s.save(path, l, rules)
}

// lock takes the exclusive lock of the state at name, waiting at most
// s.lockWait; a lock still held then is a failure of its own (lockHeld).
func (s *Shared) lock(name string) (*flock.Flock, error) {
	lock := access.Lock(name, true)
	ctx, cancel := context.WithTimeout(context.Background(), s.lockWait)
	defer cancel()
	ok, err := lock.TryLockContext(ctx, lockRetry)
	if herr := access.Held(lock); herr != nil {
		return nil, herr
	}
	if ok && err == nil {
		return lock, nil
	}
	_ = lock.Close()
	if err != nil && ctx.Err() == nil {
		return nil, err
	}
	return nil, lockHeld(name, s.lockWait)
}

// lockHeld is the failure of a step whose lock another process held past
// the bound: nothing was charged or sent, and the user is told where the
// lock is and what to do, as no wait of the agent's would help.
func lockHeld(name string, waited time.Duration) error {
	dir := filepath.Dir(name)
	return fault.Errorf(fault.CodeConfiguration,
		"the lock of the shared send budgets, %s in %s (%s), was held by another process for over %s, longer than any send takes, so nothing was sent",
		filepath.Base(name), dir, config.StateDirVar, waited).Unsent().
		Then(fmt.Sprintf("Tell the user: another process holds %s, either a snowluma-mcp server stuck mid-send or a process that put the file there; end that process (or remove the file if no process of this account holds it), or set %s to a new folder and restart the server. Then send again.", name, config.StateDirVar))
}

// load reads the state; an unreadable one is moved aside and replaced by
// a spent one (rebuilt is then true).
func (s *Shared) load(path string) (l *Local, rules []ruleFile, rebuilt bool) {
	l = NewLocal(s.limits, s.clock)
	lg, err := s.read(path, s.clock.Now())
	if errors.Is(err, fs.ErrNotExist) {
		return l, nil, false
	}
	if err != nil {
		aside := path + ".bad"
		_ = os.Rename(path, aside)
		fmt.Fprintf(s.log, "snowluma-mcp: the shared send budget %s could not be read (%v); it was moved to %s and started again as spent, so the next send waits one refill interval\n", path, err, aside)
		now := s.clock.Now()
		l.account.tat = now.Add(time.Duration(s.limits.Account.Burst) * s.limits.Account.Every)
		l.account.base = l.account.tat
		return l, nil, true
	}
	l.seq = lg.Seq
	l.account = *lg.Account.bucket()
	for k, f := range lg.Targets {
		chat, id, ok := strings.Cut(k, ":")
		if ok {
			l.targets[Target{Chat: chat, ID: id}] = f.bucket()
		}
	}
	return l, lg.Rules, false
}

// written refuses a state that no clock at now could have written: one
// whose times lie further ahead than a budget can reach (a full budget's
// refill plus the longest wait, under the slowest rule any server set),
// or a rule seen later than now. A clock stepped back, or a file made by
// hand, would otherwise hold every send for as long as the times say
// (years, for a time in 9999), and silently. Such a state is treated as
// damaged: moved aside, restarted as spent, with a warning.
//
// The longest wait is the longest any server may be set to wait
// (config.MaxSendWait), not this server's own: a peer set to wait longer
// charges its waiting sends that far ahead, honestly, and a bound of this
// server's own wait would take them for a clock set back and restart
// every budget full. Nor is it a wait the state records: the bound judges
// the file, so it cannot come from the file, and a writer that records
// none (or an older one) would be misjudged again. The price is that a
// clock set back by less than that bound goes unnoticed, holding sends
// no longer than such a peer's charges may.
func (s *Shared) written(lg ledger, now time.Time) error {
	const wait = config.MaxSendWait
	reach := wait + slack
	for _, r := range append([]ruleFile{{Target: s.limits.Target, Account: s.limits.Account}}, lg.Rules...) {
		// A quarter of the longest Duration leaves room to add the wait.
		longest := min(max(span(r.Target), span(r.Account)), time.Duration(math.MaxInt64/4))
		reach = max(reach, longest+wait+slack)
		if r.Seen.After(now.Add(slack)) {
			return fmt.Errorf("a server's rule was last used at %s, later than now (%s): the clock was set back, or the file was not written by this server", r.Seen.Format(time.RFC3339), now.Format(time.RFC3339))
		}
	}
	limit := now.Add(reach)
	buckets := []bucketFile{lg.Account}
	for _, b := range lg.Targets {
		buckets = append(buckets, b)
	}
	for _, b := range buckets {
		times := []time.Time{b.Base, b.TAT}
		for _, c := range b.Record {
			times = append(times, c.At)
		}
		for _, at := range times {
			if at.After(limit) {
				return fmt.Errorf("it holds a time (%s) further ahead than any budget reaches from now (%s): the clock was set back, or the file was not written by this server", at.Format(time.RFC3339), now.Format(time.RFC3339))
			}
		}
	}
	return nil
}

// slack is how far apart two readings of the one machine's clock may be
// taken (a step's read and write) without the state being suspect.
const slack = time.Second

// read reads the state at path and refuses one it cannot trust at now:
// unreadable, another's, another format, or dated ahead of any budget.
func (s *Shared) read(path string, now time.Time) (ledger, error) {
	var lg ledger
	data, err := readOwn(path)
	if err == nil {
		err = json.Unmarshal(data, &lg)
	}
	if err == nil && lg.Version != stateVersion {
		err = fmt.Errorf("format %d, this server reads %d", lg.Version, stateVersion)
	}
	if err == nil {
		err = s.written(lg, now)
	}
	return lg, err
}

// Untrusted names each account's state in dir that a server on limits
// would not trust now (and would move aside, starting that account's
// budgets again as spent), with why: for the reading of the settings,
// which tells the user before the first send does. It changes nothing.
func Untrusted(dir string, limits config.SendPace, now time.Time) []string {
	paths, _ := filepath.Glob(filepath.Join(dir, "budget-*.json"))
	s := &Shared{limits: limits}
	var out []string
	for _, p := range paths {
		if _, err := s.read(p, now); err != nil && !errors.Is(err, fs.ErrNotExist) {
			out = append(out, fmt.Sprintf("%s cannot be trusted (%v)", p, err))
		}
	}
	return out
}

// Locks refuses the state directory dir when the lock of an account's
// state is not a regular file: every step of that account fails on it
// (lock), so the reading of the settings says so before the first send,
// for the server and check alike. It changes nothing.
func Locks(dir string) error {
	paths, _ := filepath.Glob(filepath.Join(dir, "budget-*.json.lock"))
	for _, p := range paths {
		if info, err := os.Stat(p); err == nil {
			if err := access.Regular(p, info); err != nil {
				return err
			}
		}
	}
	return nil
}

// save writes the state whole: a temporary file renamed over the old one.
func (s *Shared) save(path string, l *Local, rules []ruleFile) error {
	lg := ledger{Version: stateVersion, Seq: l.seq, Account: l.account.file(), Targets: map[string]bucketFile{}, Rules: rules}
	for t, b := range l.targets {
		lg.Targets[t.Chat+":"+t.ID] = b.file()
	}
	data, err := json.Marshal(lg)
	if err != nil {
		return err
	}
	// No fsync: a state cut short by a power loss reads as damaged, is
	// moved aside and started again as spent, which fails closed.
	tmp, err := access.CreateTemp(filepath.Dir(path), ".tmp-budget-")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		_ = os.Remove(tmp.Name())
	}
	return err
}

// private is what a server tells a user whose state directory other
// accounts can reach (package access decides that per platform).
var private = access.Purpose{Why: "whoever can write the send budgets there can unpace this account's sends or stop them", Setting: "SNOWLUMA_MCP_STATE_DIR"}

// readOwn reads a state file that this user owns and no other account can
// reach; any other is an error (and the state is moved aside, rebuilt).
func readOwn(path string) ([]byte, error) { return access.Read(path, maxState, access.Owned) }

// unusable is the answer of a step that could not run: the send is
// refused as a configuration failure naming the state directory and the
// fix, not as rate_limited (no budget was read, and no wait would help),
// and nothing is charged.
func (s *Shared) unusable(t Target, err error) Grant {
	fmt.Fprintf(s.log, "snowluma-mcp: the shared send budget could not be used (%v); sends are refused until %s is usable\n", err, config.StateDirVar)
	return Grant{Budget: Account, Target: t, Err: Unusable(err)}
}

// Take implements Store.
func (s *Shared) Take(t Target, within time.Duration) Grant {
	var g Grant
	if err := s.step(true, func(l *Local) { g = l.Take(t, within) }); err != nil {
		return s.unusable(t, err)
	}
	return g
}

// Go implements Store.
func (s *Shared) Go(g *Grant) bool {
	ok := false
	if err := s.step(true, func(l *Local) { ok = l.Go(g) }); err != nil {
		return false
	}
	return ok
}

// Refund implements Store.
func (s *Shared) Refund(g *Grant) {
	_ = s.step(true, func(l *Local) { l.Refund(g) })
}

// Record charges a send that goes now, without pacing it: both budgets
// are charged for now, however spent they are, so that the servers that
// pace see it. It is how a server with pacing off takes part.
func (s *Shared) Record(t Target) Grant {
	g := Grant{Ok: true, Budget: Account, Target: t}
	err := s.step(true, func(l *Local) {
		now := l.clock.Now()
		g.Charges[0].ID = l.chargeLocked(&l.account, now, l.limits.Account)
		if tb := l.targetLocked(t, now); tb != nil {
			g.Charges[1].ID = l.chargeLocked(tb, now, l.limits.Target)
		}
	})
	if err != nil {
		fmt.Fprintf(s.log, "snowluma-mcp: the shared send budget could not be used (%v); with pacing off this send goes, and the account's other servers do not see it\n", err)
	}
	return g
}

// Snapshot implements Store.
func (s *Shared) Snapshot() Snapshot {
	var snap Snapshot
	if err := s.step(false, func(l *Local) { snap = l.Snapshot() }); err != nil {
		return Snapshot{Problem: Unusable(err).Error()}
	}
	return snap
}
