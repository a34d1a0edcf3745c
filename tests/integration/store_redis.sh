# The store_* functions of worker_env.sh for redis:// stores, through redis-cli (Debian package
# redis-tools), on the key layout of docs/redis.md. Edits that touch more than one key are one
# EVAL, atomic like the backend's own scripts. Run ids come from the tests, never from outside.

# redis://[[user]:password@]host[:port][/db][?option=value&...], as src/storage/redis/redis_url.cpp
# reads it; of the options only the key prefix matters here.
redis_percent_decode() { printf '%b' "${1//%/\\x}"; }
redis_rest=${db#redis://}
redis_query=
if [[ $redis_rest == *\?* ]]; then
  redis_query=${redis_rest#*\?}
  redis_rest=${redis_rest%%\?*}
fi
redis_user= redis_password=
if [[ $redis_rest == *@* ]]; then
  redis_userinfo=${redis_rest%@*}
  redis_rest=${redis_rest##*@}
  if [[ $redis_userinfo == *:* ]]; then
    redis_user=$(redis_percent_decode "${redis_userinfo%%:*}")
    redis_password=$(redis_percent_decode "${redis_userinfo#*:}")
  else
    redis_password=$(redis_percent_decode "$redis_userinfo")
  fi
fi
redis_db=0
if [[ $redis_rest == */* ]]; then
  redis_db=${redis_rest#*/}
  redis_rest=${redis_rest%%/*}
fi
redis_db=${redis_db:-0}
redis_host=127.0.0.1 redis_port=6379
if [[ $redis_rest == \[* ]]; then  # [IPv6]:port
  redis_host=${redis_rest%%]*}
  redis_host=${redis_host#[}
  [[ $redis_rest == *]:* ]] && redis_port=${redis_rest##*]:}
elif [[ $redis_rest == *:* ]]; then
  redis_host=${redis_rest%:*}
  redis_port=${redis_rest##*:}
elif [[ -n $redis_rest ]]; then
  redis_host=$redis_rest
fi
redis_prefix='reactor:'
IFS='&' read -ra redis_options <<<"$redis_query"
for redis_option in "${redis_options[@]}"; do
  [[ $redis_option == prefix=* ]] && redis_prefix=$(redis_percent_decode "${redis_option#prefix=}")
done

# redis-cli on the store's server and database; the password through the environment, never on
# a command line. -e: a Redis error is a non-zero exit.
rcli() {
  local user=()
  [[ -n $redis_user ]] && user=(--user "$redis_user")
  if [[ -n $redis_password ]]; then
    REDISCLI_AUTH=$redis_password redis-cli -e -h "$redis_host" -p "$redis_port" -n "$redis_db" \
      "${user[@]}" "$@"
  else
    redis-cli -e -h "$redis_host" -p "$redis_port" -n "$redis_db" "$@"
  fi
}

# ARGV: prefix, run id, header field, its new value as JSON. Rewrites one field of the run's
# header JSON in place, keeping the order the backend writes (status and updated_at first, which
# the fetch script relies on; body last); a root that changes reactor is re-filed in the index of
# its status and new reactor, as commit does.
redis_edit_header='
local P, id, field, value = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local root = redis.call("HGET", P .. "runs", id) or id
local rows = P .. "{" .. root .. "}:rows"
local blob = redis.call("HGET", rows, "h:" .. id)
if not blob then return redis.error_reply("no header for run " .. id) end
local h = cjson.decode(blob)
local edited
if field == "body" then
  -- The first ,"body": is the member: a string value cannot hold an unescaped quote.
  edited = string.match(blob, "^(.-,\"body\":)") .. value .. "}"
else
  local first, last = string.find(blob, "\"" .. field .. "\":\"[^\"]*\"")
  if not first then first, last = string.find(blob, "\"" .. field .. "\":%-?%d+") end
  if not first then return redis.error_reply("header of run " .. id .. " has no " .. field) end
  edited = string.sub(blob, 1, first - 1) .. "\"" .. field .. "\":" .. value .. string.sub(blob, last + 1)
end
redis.call("HSET", rows, "h:" .. id, edited)
if field == "reactor" and h.parent_id == "" then
  local meta = P .. "{" .. id .. "}:meta"
  local status, was = unpack(redis.call("HMGET", meta, "status", "reactor"))
  local reactor = cjson.decode(value)
  local from, to = P .. "index:" .. status .. ":" .. was, P .. "index:" .. status .. ":" .. reactor
  redis.call("ZADD", to, redis.call("ZSCORE", from, id), id)
  redis.call("ZREM", from, id)
  redis.call("SADD", P .. "reactors", reactor)
  redis.call("HSET", meta, "reactor", reactor)
end
return 1'
# ARGV: prefix, run id, step index. The step record becomes garbage; an error if the run is unknown.
redis_corrupt_step='
local P, id = ARGV[1], ARGV[2]
local root = redis.call("HGET", P .. "runs", id) or id
local rows = P .. "{" .. root .. "}:rows"
if redis.call("HEXISTS", rows, "h:" .. id) == 0 then return redis.error_reply("no run " .. id) end
-- A step still as created has no row yet: the garbage is its first.
return redis.call("HSET", rows, "s:" .. id .. "#" .. ARGV[3], "not json at all")'
# ARGV: prefix, run id, reactor name. Every job of the run (queued or in delivery) names it.
redis_set_job_reactor='
local P, id = ARGV[1], ARGV[2]
local jobs = redis.call("SMEMBERS", P .. "{" .. id .. "}:jobs")
for _, job in ipairs(jobs) do redis.call("HSET", P .. "job:" .. job, "reactor", ARGV[3]) end
return #jobs'

# ARGV: prefix, run id, text, replacement. The first FROM in the run's header record (its body is
# inline) becomes TO, found as plain text; an error if there is none.
redis_replace_in_header='
local P, id, from, to = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
local rows = P .. "{" .. id .. "}:rows"
local blob = redis.call("HGET", rows, "h:" .. id)
if not blob then return redis.error_reply("no header for run " .. id) end
local first, last = string.find(blob, from, 1, true)
if not first then return redis.error_reply("the header of run " .. id .. " has no " .. from) end
redis.call("HSET", rows, "h:" .. id, string.sub(blob, 1, first - 1) .. to .. string.sub(blob, last + 1))
return 1'
# ARGV: prefix, run id, count. Copies of the run's header record in its rows hash, each the child
# of the one before (paths growing for the first 70 levels), as one script.
redis_chain_children='
local P, id, count = ARGV[1], ARGV[2], tonumber(ARGV[3])
local rows = P .. "{" .. id .. "}:rows"
local blob = redis.call("HGET", rows, "h:" .. id)
if not blob then return redis.error_reply("no header for run " .. id) end
local function replace(s, from, to)
  local first, last = string.find(s, from, 1, true)
  return string.sub(s, 1, first - 1) .. to .. string.sub(s, last + 1)
end
local path = ""
for n = 1, count do
  if n <= 70 then path = (n == 1) and "reserve" or (path .. "/reserve") end
  local child, parent = id .. "-c" .. n, (n == 1) and id or (id .. "-c" .. (n - 1))
  local b = replace(blob, "\"id\":\"" .. id .. "\"", "\"id\":\"" .. child .. "\"")
  b = replace(b, "\"parent_id\":\"\"", "\"parent_id\":\"" .. parent .. "\"")
  b = replace(b, "\"path\":\"\"", "\"path\":\"" .. path .. "\"")
  redis.call("HSET", rows, "h:" .. child, b)
end
return count'

store_edit_header() { rcli EVAL "$redis_edit_header" 0 "$redis_prefix" "$@" >/dev/null; }
store_jobs() { rcli SCARD "${redis_prefix}{$1}:jobs"; }
store_corrupt_header() { store_edit_header "$1" body '"{\"path\": [garbage"'; }
# The header as a whole is not JSON: the backend cannot read it.
store_garble_header() {
  [[ $(rcli HSET "${redis_prefix}{$1}:rows" "h:$1" '{"id": garbage') -eq 0 ]] ||
    { echo "store_garble_header: run $1 had no header" >&2; return 1; }
}
store_corrupt_step() { rcli EVAL "$redis_corrupt_step" 0 "$redis_prefix" "$1" "$2" >/dev/null; }
store_set_schema_version() { store_edit_header "$1" schema_version "$2"; }
store_set_header_reactor() { store_edit_header "$1" reactor "\"$2\""; }
store_set_job_reactor() { rcli EVAL "$redis_set_job_reactor" 0 "$redis_prefix" "$1" "$2" >/dev/null; }
store_set_step() { rcli HSET "${redis_prefix}{$1}:rows" "s:$1#$2" "$3" >/dev/null; }
store_replace_in_body() {
  rcli EVAL "$redis_replace_in_header" 0 "$redis_prefix" "$1" "$2" "$3" >/dev/null
}
store_corrupt_fingerprint() {
  store_replace_in_body "$1" '"fingerprint":"' $'"fingerprint":"\xff'
}
store_chain_children() {
  rcli EVAL "$redis_chain_children" 0 "$redis_prefix" "$1" "$2" >/dev/null
}
# store_set_rows_field RUN_ID FIELD: a field of the run's rows hash no build writes.
store_set_rows_field() { rcli HSET "${redis_prefix}{$1}:rows" "$2" x >/dev/null; }
# A map's records are under the tag of its tree root: the map id up to its first ':'.
store_map() {
  local row
  row=$(rcli HMGET "${redis_prefix}{${1%%:*}}:map:$1" state total released "done" failed undone |
    paste -sd ' ')
  [[ $row =~ [^[:space:]] ]] && echo "$row"
  return 0
}
# Each slot record (map_id, index, state, body: the codec's order) by its index, in index order.
store_map_slots() {
  rcli ZRANGE "${redis_prefix}{${1%%:*}}:slots:$1" 0 -1 |
    sed -E 's/.*"index":([0-9]+),"state":"([^"]*)".*/\1 \2/'
}
# The slot record (the codec's order: map_id, index, state, body as a JSON string) rewritten in
# place, its body made by the script: an argument of 2 MB would pass no command line.
redis_deep_failed_slot='
local P, map_id, index, depth = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4])
local key = P .. "{" .. string.match(map_id, "^[^:]*") .. "}:slots:" .. map_id
local old = redis.call("ZRANGEBYSCORE", key, index, index)[1]
if not old then return 0 end
redis.call("ZREM", key, old)
local body = [[{\"kind\":\"step_failed\",\"message\":\"deep\",\"details\":]] ..
             string.rep("[", depth) .. string.rep("]", depth) .. "}"
redis.call("ZADD", key, index, [[{"map_id":"]] .. map_id .. [[","index":]] .. index ..
           [[,"state":"failed","body":"]] .. body .. [["}]])
return 1'
store_deep_failed_slot() {
  [[ $(rcli EVAL "$redis_deep_failed_slot" 0 "$redis_prefix" "$1" "$2" "$3") == 1 ]]
}
