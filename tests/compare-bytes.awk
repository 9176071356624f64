# tests/compare-bytes.awk — from `ladder compare --counts` output: pairs of "A FN calls= bytes_sent= bytes_recv=" and "B ..." lines
/^  A / { fa = $2; split($3, a, "="); ca = a[2]; split($4, a, "="); sa = a[2]; split($5, a, "="); ra = a[2] }
/^  B / { split($3, b, "="); if (b[2] != ca) calls++; split($4, b, "="); d = rel(sa, b[2]); if (d > max) max = d
          split($5, b, "="); d = rel(ra, b[2]); if (d > max) max = d; fns[fa] = 1 }
function rel(x, y) { return y == 0 ? (x == 0 ? 0 : 1) : (x > y ? x - y : y - x) / y }
END { n = 0; for (f in fns) { list = list (n++ ? "," : "") f }; printf "calls_differ=%d max_rel=%.4f functions=%s\n", calls, max, list }
