-- wrk script: POSTs the report in REPORT (a file) to the raw crash endpoint, each request with a
-- different incident identifier in the header line, so that no upload is a duplicate of another.
local report = io.open(os.getenv("REPORT"), "rb"):read("*a")
local marker = "4B1F2E3D-5A6C-4D7E-8F90-A1B2C3D4E5F6"
local at = report:find(marker, 1, true)
local prefix, suffix = report:sub(1, at - 1), report:sub(at + #marker)
local counter = 0
local thread_id = 0

function setup(thread)
    thread_id = thread_id + 1
    thread:set("tid", thread_id)
end

function init(args)
    tid = tid or 0
    wrk.method = "POST"
    wrk.headers["Content-Type"] = "application/octet-stream"
end

function request()
    counter = counter + 1
    local id = string.format("%08X-0000-4000-8000-%04X%08X", os.time() % 0xFFFFFFFF, tid, counter)
    return wrk.format(nil, nil, nil, prefix .. id .. suffix)
end

local statuses = {}
function response(status, headers, body)
    statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
    io.stderr:write(string.format("requests=%d errors_status=%d p50_ms=%.2f p99_ms=%.2f\n", summary.requests, summary.errors.status,
        latency:percentile(50) / 1000, latency:percentile(99) / 1000))
end
