// Command benchplot runs the scaling benchmark of the bench module (BenchmarkScale: decoding
// sampling requests of about 1 KB to 10 MB), fits how each contender's decode time grows with
// the size, and draws it as a log-log SVG plot. From the repository's root:
//
//	go run ./bench/cmd/benchplot                       # run (about 5 minutes), write bench/scaling.svg
//	go run ./bench/cmd/benchplot -raw bench/results/scale.txt -readme docs/benchmarks.md
//	go run ./bench/cmd/benchplot -in bench/results/scale.txt    # plot an earlier run again
//
// It prints the fits as a markdown table; -readme replaces the block between
// "<!-- benchplot:begin -->" and "<!-- benchplot:end -->" of a file with it.
package main

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpgen/mcpgen/bench"
	"github.com/mcpgen/mcpgen/bench/internal/cli"
	"github.com/mcpgen/mcpgen/bench/internal/results"
	"github.com/mcpgen/mcpgen/bench/internal/svgplot"
)

func main() {
	count := flag.Int("count", 3, "runs of every benchmark, each in a round of go test -count 1 that runs them all")
	benchtime := flag.String("benchtime", "1s", "go test -benchtime of every run")
	in := flag.String("in", "", "read go test output from this file instead of running it")
	raw := flag.String("raw", "", "write go test's output to this file")
	svg := flag.String("svg", "", "write the plot to this file (default bench/scaling.svg of the repository)")
	readme := flag.String("readme", "", "replace the benchplot block of this file with the fits")
	flag.Parse()
	args := []string{"-bench", "^BenchmarkScale$", "-benchtime", *benchtime}
	if err := run(*in, *raw, *svg, *readme, *count, args); err != nil {
		fmt.Fprintln(os.Stderr, "benchplot:", err)
		os.Exit(1)
	}
}

func run(in, raw, svg, readme string, rounds int, args []string) error {
	root, err := cli.Root()
	if err != nil {
		return err
	}
	if svg == "" {
		svg = filepath.Join(root, "bench", "scaling.svg")
	}
	res, err := cli.Results(in, raw, rounds, args)
	if err != nil {
		return err
	}
	sizes := map[string]int{}
	for _, c := range bench.ScaleSeries() {
		sizes[c.Name] = len(c.Data)
	}
	series, skipped, err := collect(res, sizes)
	if err != nil {
		return err
	}
	plot := newPlot(res, series, skipped)
	data, err := plot.SVG()
	if err != nil {
		return err
	}
	if err := os.WriteFile(svg, data, 0o644); err != nil {
		return err
	}
	text := fits(res, series, skipped)
	fmt.Print(text)
	if readme != "" {
		return results.ReplaceBlock(readme, "benchplot", text)
	}
	return nil
}

// collect returns, for every contender in the order it first ran, its median decode time at
// every size it holds; and for every contender, the sizes it skipped and why.
func collect(res *results.Results, sizes map[string]int) ([]svgplot.Series, map[string][]string, error) {
	var series []svgplot.Series
	index := map[string]int{}
	for _, bm := range res.Benchmarks {
		size, contender, ok := split(bm.Name)
		if !ok {
			continue
		}
		n, ok := sizes[size]
		if !ok {
			return nil, nil, fmt.Errorf("%s: no request %q in the scaling series", bm.Name, size)
		}
		i, ok := index[contender]
		if !ok {
			i = len(series)
			index[contender] = i
			series = append(series, svgplot.Series{Name: contender, Dashed: contender == "jx.Skip"})
		}
		ns, _ := bm.Median(results.NsPerOp)
		series[i].Points = append(series[i].Points, svgplot.Point{X: float64(n), Y: ns})
	}
	for i := range series {
		slices.SortFunc(series[i].Points, func(a, b svgplot.Point) int { return cmp.Compare(a.X, b.X) })
	}
	skipped := map[string][]string{}
	for name, reason := range res.Skipped {
		size, contender, ok := split(name)
		if ok {
			skipped[contender] = append(skipped[contender], size+": "+reason)
		}
	}
	for _, s := range skipped {
		slices.SortFunc(s, func(a, b string) int { return sizes[sizeOf(a)] - sizes[sizeOf(b)] })
	}
	return series, skipped, nil
}

func sizeOf(skip string) string { s, _, _ := strings.Cut(skip, ": "); return s }

// split splits "BenchmarkScale/size=1KB/go-sdk" into "size=1KB" and "go-sdk".
func split(name string) (size, contender string, ok bool) {
	rest, ok := strings.CutPrefix(name, "BenchmarkScale/")
	if !ok {
		return "", "", false
	}
	size, contender, ok = strings.Cut(rest, "/")
	return size, contender, ok
}

func newPlot(res *results.Results, series []svgplot.Series, skipped map[string][]string) *svgplot.Plot {
	p := &svgplot.Plot{
		Title: "Decoding a sampling request: time per message size (log-log)",
		Subtitle: fmt.Sprintf("median of %s runs; %s, %s cores, %s, %s", runs(res), res.Value("cpu"),
			res.Value("cores"), res.Value("go"), res.Value("date")),
		XLabel: "message size (a sampling/createMessage request's params: 25 tools for every 40 messages)",
		YLabel: "decode time per message",
	}
	for _, at := range []int{1 << 10, 10 << 10, 100 << 10, 1 << 20, 10 << 20} {
		p.XTicks = append(p.XTicks, svgplot.Tick{At: float64(at), Label: bench.SizeName(at)})
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, pt := range s.Points {
			lo, hi = math.Min(lo, pt.Y), math.Max(hi, pt.Y)
		}
	}
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		p.YTicks = append(p.YTicks, svgplot.Tick{At: math.Pow(10, e), Label: results.Duration(math.Pow(10, e))})
	}
	for _, s := range series {
		slope, _ := svgplot.Fit(s.Points)
		label := fmt.Sprintf("%s: slope %.2f", s.Name, slope)
		if len(s.Points) < 2 {
			label = fmt.Sprintf("%s: %d point", s.Name, len(s.Points))
		}
		if n := len(skipped[s.Name]); n > 0 {
			label += fmt.Sprintf(" (not timed at %d sizes: cannot hold them)", n)
		}
		p.Series = append(p.Series, svgplot.Series{Name: label, Points: s.Points, Dashed: s.Dashed})
	}
	for c, skips := range skipped {
		if !slices.ContainsFunc(series, func(s svgplot.Series) bool { return s.Name == c }) {
			p.Notes = append(p.Notes, fmt.Sprintf("%s: no point (%s)", c, skips[0]))
		}
	}
	slices.Sort(p.Notes)
	p.Notes = append(p.Notes, "slope: of log(time) on log(size); 1 is linear growth")
	return p
}

func runs(res *results.Results) string {
	n := 0
	for _, bm := range res.Benchmarks {
		n = max(n, len(bm.Samples))
	}
	return fmt.Sprint(n)
}

// fits writes, for every contender, how its decode time grows: the slope of the log-log fit over
// all sizes and over the sizes from 100 KB, and the time per byte at the ends.
func fits(res *results.Results, series []svgplot.Series, skipped map[string][]string) string {
	t := &results.Table{Header: []string{"", "sizes held", "slope (all)", "R²", "slope (≥ 100 KB)",
		"slope of time ÷ jx.Skip (≥ 100 KB)", "ns/byte, smallest", "ns/byte, largest", "growth"}}
	var floor map[float64]float64 // jx.Skip's time by size
	for _, s := range series {
		if s.Name == "jx.Skip" {
			floor = map[float64]float64{}
			for _, pt := range s.Points {
				floor[pt.X] = pt.Y
			}
		}
	}
	for _, s := range series {
		slope, r2 := svgplot.Fit(s.Points)
		var large, relative []svgplot.Point
		for _, pt := range s.Points {
			if pt.X >= 90<<10 {
				large = append(large, pt)
				if f, ok := floor[pt.X]; ok {
					relative = append(relative, svgplot.Point{X: pt.X, Y: pt.Y / f})
				}
			}
		}
		slopeLarge, _ := svgplot.Fit(large)
		// The floor's own slope is the machine's (caches, memory, load): a contender whose time
		// grows like the floor's has a relative slope of 0.
		slopeRelative, _ := svgplot.Fit(relative)
		first, last := s.Points[0], s.Points[len(s.Points)-1]
		t.Rows = append(t.Rows, []string{s.Name,
			fmt.Sprintf("%s to %s", results.Bytes(first.X), results.Bytes(last.X)),
			num(slope), num(r2), num(slopeLarge), num(slopeRelative),
			fmt.Sprintf("%.2f", first.Y/first.X), fmt.Sprintf("%.2f", last.Y/last.X),
			growth(slope, slopeLarge, len(s.Points))})
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Scaling run: median of %s runs per point, on %s, %s cores, %s, %s (commit %s).\n\n",
		runs(res), res.Value("cpu"), res.Value("cores"), res.Value("go"), res.Value("date"), res.Value("commit"))
	b.WriteString(t.String())
	var names []string
	for c := range skipped {
		names = append(names, c)
	}
	slices.Sort(names)
	for _, c := range names {
		fmt.Fprintf(&b, "\n%s is not timed at %d sizes: %s\n", c, len(skipped[c]), skipped[c][0])
	}
	return b.String()
}

func num(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return fmt.Sprintf("%.2f", v)
}

// growth says whether a fit is linear: a slope within 0.1 of 1 over the large sizes (over all
// sizes when there are not enough large ones). Below, fixed costs still weigh; above, time per
// byte grows with size (compare the floor's slope: it is the machine's part of that).
func growth(all, large float64, points int) string {
	s := large
	if math.IsNaN(s) {
		s = all
	}
	switch {
	case points < 2 || math.IsNaN(s):
		return "—"
	case s > 1.1:
		return "superlinear"
	case s < 0.9:
		return "sublinear"
	}
	return "linear"
}
