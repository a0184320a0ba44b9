// Package results runs the benchmarks of the bench module with `go test` and reads what it
// prints: the configuration lines (goos, cpu, ...), every sample of every benchmark, and the
// reason of every benchmark that skipped. It keeps all samples of a benchmark run with -count, and
// summarizes them by their median, as benchstat does.
package results

import (
	"bufio"
	"fmt"
	"io"
	"os/exec"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Results is what one run of `go test -bench` printed.
type Results struct {
	// Config holds the configuration lines ("key: value") in order: goos, goarch, pkg, cpu,
	// and the lines the commands add (go, cores, versions).
	Config []KeyValue
	// Benchmarks holds the benchmarks that ran, by name (without the -GOMAXPROCS suffix), in
	// the order they first ran.
	Benchmarks []*Benchmark
	// Skipped holds the reason of every benchmark that skipped, by name.
	Skipped map[string]string

	byName map[string]*Benchmark
}

// A KeyValue is one configuration line.
type KeyValue struct{ Key, Value string }

// A Benchmark is the samples of one benchmark.
type Benchmark struct {
	Name    string
	Samples []Sample
}

// A Sample is one result line; a metric that the line does not report is zero.
type Sample struct {
	N        int
	NsPerOp  float64
	MBPerS   float64
	BPerOp   float64
	AllocsOp float64
}

// Get returns the benchmark of a name, or nil.
func (r *Results) Get(name string) *Benchmark {
	return r.byName[name]
}

// Value returns the configuration value of a key, or "".
func (r *Results) Value(key string) string {
	for _, kv := range r.Config {
		if kv.Key == key {
			return kv.Value
		}
	}
	return ""
}

var (
	resultLine = regexp.MustCompile(`^(Benchmark\S+?)(-\d+)?\s+(\d+)\s+(.*)$`)
	configLine = regexp.MustCompile(`^([a-z][a-zA-Z0-9_./-]*): (.*)$`)
	logLine    = regexp.MustCompile(`^\s+\S+\.go:\d+: (.*)$`)
)

// Parse reads the output of `go test -bench -v` (or without -v: then no skip reasons).
func Parse(r io.Reader) (*Results, error) {
	res := &Results{Skipped: map[string]string{}, byName: map[string]*Benchmark{}}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	var logs []string // log lines since the last benchmark name line
	for lineNo := 1; sc.Scan(); lineNo++ {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "--- SKIP: "):
			name := strings.TrimSpace(strings.TrimPrefix(line, "--- SKIP: "))
			res.Skipped[name] = strings.Join(logs, "; ")
			logs = nil
		case strings.HasPrefix(line, "--- FAIL: "), strings.HasPrefix(line, "FAIL"):
			return nil, fmt.Errorf("line %d: the benchmarks failed: %s", lineNo, line)
		case logLine.MatchString(line):
			logs = append(logs, logLine.FindStringSubmatch(line)[1])
		case resultLine.MatchString(line):
			m := resultLine.FindStringSubmatch(line)
			s, err := parseSample(m[3], m[4])
			if err != nil {
				return nil, fmt.Errorf("line %d: %v", lineNo, err)
			}
			b := res.byName[m[1]]
			if b == nil {
				b = &Benchmark{Name: m[1]}
				res.byName[m[1]] = b
				res.Benchmarks = append(res.Benchmarks, b)
			}
			b.Samples = append(b.Samples, s)
			logs = nil
		case strings.HasPrefix(line, "Benchmark"): // the name line that -v prints first
			logs = nil
		case configLine.MatchString(line):
			m := configLine.FindStringSubmatch(line)
			if !slices.ContainsFunc(res.Config, func(kv KeyValue) bool { return kv.Key == m[1] }) {
				res.Config = append(res.Config, KeyValue{m[1], strings.TrimSpace(m[2])})
			}
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	return res, nil
}

func parseSample(n, metrics string) (Sample, error) {
	var s Sample
	var err error
	if s.N, err = strconv.Atoi(n); err != nil {
		return s, err
	}
	f := strings.Fields(metrics)
	if len(f)%2 != 0 {
		return s, fmt.Errorf("metrics %q are not value-unit pairs", metrics)
	}
	for i := 0; i < len(f); i += 2 {
		v, err := strconv.ParseFloat(f[i], 64)
		if err != nil {
			return s, fmt.Errorf("metric %q: %v", f[i]+" "+f[i+1], err)
		}
		switch f[i+1] {
		case "ns/op":
			s.NsPerOp = v
		case "MB/s":
			s.MBPerS = v
		case "B/op":
			s.BPerOp = v
		case "allocs/op":
			s.AllocsOp = v
		}
	}
	if s.NsPerOp == 0 {
		return s, fmt.Errorf("no ns/op in %q", metrics)
	}
	return s, nil
}

// Median returns the median of one metric over the samples, and its spread: the largest
// distance of a sample from the median, as a fraction of the median (benchstat's ± is a
// confidence interval; with few samples this is simpler and no narrower).
func (b *Benchmark) Median(metric func(Sample) float64) (median, spread float64) {
	xs := make([]float64, len(b.Samples))
	for i, s := range b.Samples {
		xs[i] = metric(s)
	}
	slices.Sort(xs)
	n := len(xs)
	if n == 0 {
		return 0, 0
	}
	median = xs[n/2]
	if n%2 == 0 {
		median = (xs[n/2-1] + xs[n/2]) / 2
	}
	if median != 0 {
		spread = max(median-xs[0], xs[n-1]-median) / median
	}
	return median, spread
}

// The metrics, for Median.
func NsPerOp(s Sample) float64  { return s.NsPerOp }
func MBPerS(s Sample) float64   { return s.MBPerS }
func BPerOp(s Sample) float64   { return s.BPerOp }
func AllocsOp(s Sample) float64 { return s.AllocsOp }

// Run runs `go test` on pkg rounds times with the given extra arguments (-bench, -benchtime),
// with -count 1, -v (for the skip reasons), -benchmem, -run '^$' and no timeout. Each round runs
// every benchmark once, so the samples of a benchmark are spread over the whole run, as are the
// samples it is compared with: a machine whose load changes during the run (shared cores)
// shifts all of them alike, where -count would take one benchmark's samples back to back.
//
// Run writes the configuration lines first, then everything go test prints, to out and, as it
// comes, to progress (nil for none). It returns the output, parsed.
func Run(pkg string, config []KeyValue, rounds int, args []string, out, progress io.Writer) (*Results, error) {
	var buf strings.Builder
	w := io.MultiWriter(&buf, out)
	if progress != nil {
		w = io.MultiWriter(&buf, out, progress)
	}
	for _, kv := range config {
		fmt.Fprintf(w, "%s: %s\n", kv.Key, kv.Value)
	}
	fmt.Fprintf(w, "rounds: %d\n", rounds)
	for round := 1; round <= rounds; round++ {
		if progress != nil {
			fmt.Fprintf(progress, "round %d of %d\n", round, rounds)
		}
		cmd := exec.Command("go", append([]string{"test", "-run", "^$", "-v", "-benchmem", "-timeout", "0", "-count", "1"}, append(args, pkg)...)...)
		cmd.Stdout = w
		cmd.Stderr = w
		if err := cmd.Run(); err != nil {
			return nil, fmt.Errorf("go test %s: %v", strings.Join(cmd.Args[2:], " "), err)
		}
	}
	return Parse(strings.NewReader(buf.String()))
}
