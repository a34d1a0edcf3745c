#!lua
-- ordered_chain: an operator's call on an ordered chain (`reactor ordered-lock`; hold_store.hpp):
-- its state (peek), its head skipped (the run is no longer waited for), or reset (its failure
-- cleared, its members forgotten; its next seq kept, so a run joining later still comes after).
--
-- KEYS (1):
-- KEYS[1]  the store's key prefix: the chain's keys are derived from it (includes/coordination)
-- ARGV[1]  'peek', 'skip' or 'reset'
-- ARGV[2]  the chain's key
-- Returns 0 for a chain never joined (storage::no_chain, commit_refusals.hpp), else the chain
-- after the call, as chain_row() lists it (includes/coordination).
--- @include "includes/keys"
--- @include "includes/coordination"

local op, k = ARGV[1], ARGV[2]
if redis.call('EXISTS', chain_key(k)) == 0 then return 0 end
if op == 'skip' then
  redis.call('ZPOPMIN', members_key(k))
elseif op == 'reset' then
  redis.call('DEL', members_key(k))
  redis.call('HSET', chain_key(k), 'failed', '0', 'failed_run', '')
end
return chain_row(k)
