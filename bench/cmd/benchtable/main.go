// Command benchtable runs the decode and encode benchmarks of the bench module and prints their
// table: for every corpus, every contender's median ns/op, MB/s, B/op and allocs/op, its ratios
// to the floors and to every other contender, and where mcpgen stands against its codec
// targets. A contender that cannot hold a corpus (see bench.Hold) has the reason in place of
// numbers. From the repository's root:
//
//	go run ./bench/cmd/benchtable                      # run (about 8 minutes) and print
//	go run ./bench/cmd/benchtable -raw bench/results/table.txt -readme docs/benchmarks.md
//	go run ./bench/cmd/benchtable -in bench/results/table.txt   # print an earlier run again
//
// -raw keeps go test's output (benchstat reads it too); -readme replaces the block between
// "<!-- benchtable:begin -->" and "<!-- benchtable:end -->" of a file with the table.
//
// With -hostile it runs and prints the hostile shapes instead (BenchmarkHostile: a
// 50 MB string, a million members, a million elements, nesting near the limit), 3 rounds by
// default (about 15 minutes), into the block "benchhostile":
//
//	go run ./bench/cmd/benchtable -hostile -raw bench/results/hostile.txt -readme docs/benchmarks.md
package main

import (
	"flag"
	"fmt"
	"math"
	"os"
	"strings"

	"github.com/mcpgen/mcpgen/bench"
	"github.com/mcpgen/mcpgen/bench/internal/cli"
	"github.com/mcpgen/mcpgen/bench/internal/results"
)

func main() {
	count := flag.Int("count", 5, "runs of every benchmark, each in a round of go test -count 1 that runs them all")
	benchtime := flag.String("benchtime", "1s", "go test -benchtime of every run")
	pattern := flag.String("bench", "^Benchmark(Decode|Encode)$", "go test -bench pattern")
	in := flag.String("in", "", "read go test output from this file instead of running it")
	raw := flag.String("raw", "", "write go test's output to this file")
	readme := flag.String("readme", "", "replace the benchtable block of this file with the table")
	hostile := flag.Bool("hostile", false, "run and print the hostile shapes (BenchmarkHostile) into the block benchhostile")
	flag.Parse()
	if *hostile {
		set := map[string]bool{}
		flag.Visit(func(f *flag.Flag) { set[f.Name] = true })
		if !set["bench"] {
			*pattern = "^BenchmarkHostile$"
		}
		if !set["count"] {
			*count = 3
		}
	}
	if err := run(*in, *raw, *readme, *hostile, *count, []string{"-bench", *pattern, "-benchtime", *benchtime}); err != nil {
		fmt.Fprintln(os.Stderr, "benchtable:", err)
		os.Exit(1)
	}
}

func run(in, raw, readme string, hostile bool, rounds int, args []string) error {
	root, err := cli.Root()
	if err != nil {
		return err
	}
	corpora, err := bench.Corpora(root)
	if err != nil {
		return err
	}
	res, err := cli.Results(in, raw, rounds, args)
	if err != nil {
		return err
	}
	text, block := render(res, corpora), "benchtable"
	if hostile {
		text, block = renderHostile(res), "benchhostile"
	}
	fmt.Print(text)
	if readme != "" {
		return results.ReplaceBlock(readme, block, text)
	}
	return nil
}

const (
	mcpgen   = "mcpgen-draft"
	noCopy   = "mcpgen-draft-nocopy"
	goSDK    = "go-sdk"
	jxSkip   = "jx.Skip"
	compact  = "json.Compact"
	sampling = "sampling-40msg"
	toolList = "tools-list-200"
)

func render(res *results.Results, corpora []bench.Corpus) string {
	var b strings.Builder
	b.WriteString(machine(res))
	b.WriteString(targets(res))
	for _, op := range []bench.Op{bench.Decode, bench.Encode} {
		if op == bench.Decode {
			b.WriteString("\n### Decode: bytes to a value\n")
		} else {
			b.WriteString("\n### Encode: a decoded value to bytes\n")
		}
		for _, c := range corpora {
			b.WriteString(corpusTable(res, op, c))
		}
	}
	return b.String()
}

// machine writes what the run was: where, with what, how many times.
func machine(res *results.Results) string {
	var b strings.Builder
	b.WriteString(ranOn(res) + "\n")
	for _, k := range bench.Contenders() {
		if v := res.Value(k.Name); v != "" {
			fmt.Fprintf(&b, "- %s: %s\n", k.Name, v)
		}
	}
	if v := res.Value("jx"); v != "" {
		fmt.Fprintf(&b, "- floors: %s Skip of the input; encoding/json Valid of the input, Compact of the compact input into a reused buffer\n", v)
	}
	return b.String()
}

// ranOn writes where and when the run was, and how many times every benchmark ran.
func ranOn(res *results.Results) string {
	runs := 0
	for _, bm := range res.Benchmarks {
		runs = max(runs, len(bm.Samples))
	}
	how := fmt.Sprintf("Every benchmark ran %d times back to back (go test -count)", runs)
	if rounds := res.Value("rounds"); rounds != "" {
		how = fmt.Sprintf("Every benchmark ran once in each of %s rounds of go test, so the runs of all of them interleave", rounds)
	}
	return fmt.Sprintf("Ran on %s, %s cores, %s, %s/%s, on %s (commit %s). %s; "+
		"the tables show medians, and ± is the largest distance of a run from the median.\n",
		orUnknown(res.Value("cpu")), orUnknown(res.Value("cores")), orUnknown(res.Value("go")),
		orUnknown(res.Value("goos")), orUnknown(res.Value("goarch")), orUnknown(res.Value("date")),
		orUnknown(res.Value("commit")), how)
}

func orUnknown(s string) string {
	if s == "" {
		return "?"
	}
	return s
}

// median returns the median ns/op of a benchmark, or NaN when it did not run.
func median(res *results.Results, name string, metric func(results.Sample) float64) float64 {
	bm := res.Get(name)
	if bm == nil {
		return math.NaN()
	}
	m, _ := bm.Median(metric)
	return m
}

func name(op bench.Op, corpus, contender string) string {
	return "Benchmark" + string(op) + "/" + corpus + "/" + contender
}

// targets writes where mcpgen stands against its codec targets: its decode both as
// UnmarshalJSON (which copies the input) and as UnmarshalNoCopy (which keeps it).
func targets(res *results.Results) string {
	t := &results.Table{Header: []string{"target", "corpus", "contender", "measured", "met"}}
	ns := func(op bench.Op, corpus, contender string) float64 {
		return median(res, name(op, corpus, contender), results.NsPerOp)
	}
	allocs := func(corpus, contender string) float64 {
		return median(res, name(bench.Decode, corpus, contender), results.AllocsOp)
	}
	add := func(target, corpus, contender string, v float64, format func(float64) string, met bool) {
		verdict := "no"
		switch {
		case math.IsNaN(v):
			verdict, met = "cannot tell", false
		case met:
			verdict = "yes"
		}
		measured := "—"
		if !math.IsNaN(v) {
			measured = format(v)
		}
		t.Rows = append(t.Rows, []string{target, corpus, contender, measured, verdict})
	}
	decoders := []string{mcpgen, noCopy}
	for _, c := range []string{sampling, toolList} {
		for _, k := range decoders {
			r := ns(bench.Decode, c, k) / ns(bench.Decode, c, jxSkip)
			add("decode (and Validate) within 2× of jx.Skip", c, k, r, func(v float64) string { return fmt.Sprintf("%.2f× jx.Skip", v) }, r <= 2)
		}
	}
	for _, k := range decoders {
		r := ns(bench.Decode, sampling, goSDK) / ns(bench.Decode, sampling, k)
		add("decode at least 20× faster than go-sdk", sampling, k, r, func(v float64) string { return fmt.Sprintf("%.1f× faster", v) }, r >= 20)
	}
	for _, c := range []string{sampling, toolList} {
		r := ns(bench.Encode, c, mcpgen) / ns(bench.Encode, c, compact)
		add("encode within 1.2× of json.Compact", c, mcpgen, r, func(v float64) string { return fmt.Sprintf("%.2f× json.Compact", v) }, r <= 1.2)
	}
	for _, c := range []string{sampling, toolList} {
		for _, k := range decoders {
			r := allocs(c, k) / allocs(c, goSDK)
			add("allocs per decode at most 1/10 of go-sdk's", c, k, r, func(v float64) string {
				return fmt.Sprintf("%.2f× go-sdk's (%s vs %s)", v, results.Count(allocs(c, k)), results.Count(allocs(c, goSDK)))
			}, r <= 0.1)
		}
	}
	return "\nWhere mcpgen's draft types stand against the codec targets, decoding with UnmarshalJSON (" + mcpgen +
		", which copies the input) and with UnmarshalNoCopy (" + noCopy + ", which keeps it); the target of linear growth " +
		"is judged by the scaling plot below:\n\n" + t.String()
}

// corpusTable writes the table of one operation on one corpus.
func corpusTable(res *results.Results, op bench.Op, c bench.Corpus) string {
	type row struct {
		name, goType, skip string
		bm                 *results.Benchmark
	}
	var rows []row
	for _, k := range bench.Contenders() {
		codec, ok := k.Codec(c.Type)
		if !ok || op == bench.Encode && k.DecodeOnly {
			continue
		}
		n := name(op, c.Name, k.Name)
		rows = append(rows, row{k.Name, codec.GoType, res.Skipped[n], res.Get(n)})
	}
	for _, f := range bench.Floors() {
		if f.Op == op {
			n := name(op, c.Name, f.Name)
			rows = append(rows, row{f.Name, "floor", res.Skipped[n], res.Get(n)})
		}
	}
	var ran []row
	for _, r := range rows {
		if r.bm != nil {
			ran = append(ran, r)
		}
	}
	if len(ran) == 0 {
		return ""
	}
	t := &results.Table{Header: []string{"", "type", "time/op", "±", "MB/s", "B/op", "allocs/op"}}
	for _, r := range ran {
		t.Header = append(t.Header, "÷ "+r.name)
	}
	for _, r := range rows {
		cells := []string{r.name, r.goType}
		switch {
		case r.bm != nil:
			ns, spread := r.bm.Median(results.NsPerOp)
			mbs, _ := r.bm.Median(results.MBPerS)
			bop, _ := r.bm.Median(results.BPerOp)
			allocs, _ := r.bm.Median(results.AllocsOp)
			cells = append(cells, results.Duration(ns), fmt.Sprintf("%.0f%%", spread*100),
				fmt.Sprintf("%.0f", mbs), results.Bytes(bop), results.Count(allocs))
			for _, o := range ran {
				other, _ := o.bm.Median(results.NsPerOp)
				cells = append(cells, results.Ratio(ns/other))
			}
		case r.skip != "":
			cells = append(cells, r.skip)
			for range len(t.Header) - len(cells) {
				cells = append(cells, "")
			}
		default:
			cells = append(cells, "not run")
			for range len(t.Header) - len(cells) {
				cells = append(cells, "")
			}
		}
		t.Rows = append(t.Rows, cells)
	}
	size := len(c.Data)
	what := "input"
	if op == bench.Encode {
		if compact, err := bench.Compact(c.Data); err == nil {
			size = len(compact)
		}
		what = "compact"
	}
	return fmt.Sprintf("\n**%s %s** (%s; %s bytes %s). Read \"÷ X\" as this row's time over X's.\n\n%s",
		op, c.Name, c.Source, results.Count(float64(size)), what, t.String())
}
