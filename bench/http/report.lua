-- Prints one machine-readable line at the end of a wrk run.
done = function(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write
    + summary.errors.status + summary.errors.timeout
  io.write(string.format("RESULT requests=%d bytes=%d duration_us=%d errors=%d\n",
    summary.requests, summary.bytes, summary.duration, errors))
end
