-- wrk script: GET /api/v1.0/leads with one filter (FILTER env) and a random value per request, over the data of
-- bench/leads-get-data.sql (user<N>@… emails, phones ending 555-<4 digits><3 digits>, Stage0..11, !t0..!t210 tags).
local key = os.getenv("BENCH_API_KEY")
local filter = os.getenv("FILTER")
math.randomseed(os.time())

local function q(v) return '%22' .. v .. '%22' end

function request()
  local path = "/api/v1.0/leads?pageSize=50"
  if filter == "email-prefix" then
    path = path .. "&emails=" .. q("user" .. math.random(1, 1000000) .. "%40")
  elseif filter == "phone" then
    path = path .. "&phones=" .. q("555" .. string.format("%04d", math.random(0, 9999)) .. "001")
  elseif filter == "stage" then
    path = path .. "&stage=stage" .. math.random(1, 11)
  elseif filter == "tag" then
    path = path .. "&tags=" .. q("!t" .. math.random(0, 210))
  end
  return wrk.format("GET", path, { ["API-Key"] = key })
end

function done(summary, latency, requests)
  io.write(string.format("requests_per_second=%.0f p50_ms=%.2f p99_ms=%.2f non_2xx=%d errors=%d\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.status, summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
