-- wrk script: POST /api/v1.0/leads with a unique email per request (each a new lead).
-- The API key comes from the environment (BENCH_API_KEY); every thread numbers its own requests.
local counter = 0
local key = os.getenv("BENCH_API_KEY")
local threads = 0
local salt = os.getenv("BENCH_SALT") or "" -- tells apart the emails of wrk processes started in the same second

function setup(thread)
  threads = threads + 1
  thread:set("thread_id", os.time() * 100 + threads) -- distinct per thread and per run
end

function request()
  counter = counter + 1
  local body = string.format('{"email":"bench-%s%d-%d@example.com","firstName":"Load","tags":["@bench"]}', salt, thread_id, counter)
  return wrk.format("POST", "/api/v1.0/leads",
    { ["API-Key"] = key, ["Content-Type"] = "application/json" }, body)
end

function done(summary, latency, requests)
  io.write(string.format("accepted_per_second=%.0f p50_ms=%.2f p99_ms=%.2f non_2xx=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
