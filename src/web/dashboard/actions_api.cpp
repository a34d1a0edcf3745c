// POST /api/runs/<id>/<action>: each action is one of the Engine's own operations — cancel, undo,
// retry, resume (a halted run), enqueue (a resume job), resume-interrupt (a paused run's payload).
// The body is a JSON object (may be empty): {"reason"} for cancel, {"step", "payload"} for
// resume-interrupt.
#include "records/codec.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

namespace {

Reply done(const Status& s, Value body = Value::object()) {
  if (!s.ok()) return status_reply(s);
  body["ok"] = true;
  return Reply{200, std::move(body)};
}

Reply resumed(const Result<RunResult>& r) {
  if (!r.ok()) return status_reply(r.status());
  return done(Status::Ok(), Value{{"status", to_string(r->status)}});
}

Reply resume_interrupt(Api& api, const std::string& run_id, const Value& body) {
  if (!body.contains("step") || !body["step"].is_string()) {
    return error_reply(400, "resume-interrupt needs {\"step\": <path>, \"payload\": {...}}");
  }
  Value payload = body.value("payload", Value::object());
  return resumed(
      api.engine.resume_interrupt(run_id, body["step"].get<std::string>(), std::move(payload)));
}

}  // namespace

Reply run_action(Api& api, const std::string& run_id, const std::string& action,
                 const std::string& text) {
  Value body = Value::object();
  if (!text.empty()) {
    try {
      body = records::decode_value(text);  // the bounded reader: a body may nest deep
    } catch (const std::exception&) {
      body = nullptr;
    }
    if (!body.is_object()) return error_reply(400, "the body is not a JSON object");
  }
  if (action == "cancel") return done(api.engine.cancel(run_id, body.value("reason", "")));
  if (action == "undo") return resumed(api.engine.undo(run_id));
  if (action == "retry") {
    Result<std::string> id = api.engine.retry(run_id);
    if (!id.ok()) return status_reply(id.status());
    return done(Status::Ok(), Value{{"run_id", *id}});
  }
  if (action == "resume") return done(api.engine.resume_halted(run_id));
  if (action == "enqueue") return done(enqueue_resume(api.engine, run_id));
  if (action == "resume-interrupt") return resume_interrupt(api, run_id, body);
  return error_reply(404, "no action '" + action + "'");
}

}  // namespace reactor::web
