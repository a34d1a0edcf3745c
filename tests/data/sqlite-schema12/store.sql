PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
INSERT INTO meta VALUES('schema_version',12);
CREATE TABLE run_inputs (
      run_id TEXT PRIMARY KEY,
      inputs TEXT NOT NULL
    );
INSERT INTO run_inputs VALUES('corpus-crash-interrupted','{"batch":"b-7"}');
INSERT INTO run_inputs VALUES('corpus-order-completed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1001,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-order-failed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-review-halted','{"applicant":"Łukasz"}');
INSERT INTO run_inputs VALUES('corpus-shipment-completed','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('01a24d2a-3b58-708a-934d-10c5da7543d9','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('corpus-shipment-child-failed','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('01a24d2a-3b5a-7c4a-b32a-7b2dffa6614b','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('corpus-batch-completed','{"fail_item":-1,"lines":[1,2,3]}');
INSERT INTO run_inputs VALUES('01a24d2a-3b5f-7035-8eea-ee24bd19ec3c','{"fail_item":-1,"item":1}');
INSERT INTO run_inputs VALUES('01a24d2a-3b5f-7b46-a977-4d4f3a37d39b','{"fail_item":-1,"item":2}');
INSERT INTO run_inputs VALUES('01a24d2a-3b60-74d9-9ff6-f20e277825aa','{"fail_item":-1,"item":3}');
INSERT INTO run_inputs VALUES('corpus-batch-atomic-failed','{"fail_item":3,"lines":[1,2,3,4]}');
INSERT INTO run_inputs VALUES('01a24d2a-3b62-7a5c-9640-45342ccf99dd','{"fail_item":3,"item":1}');
INSERT INTO run_inputs VALUES('01a24d2a-3b63-7716-86a7-9163fe3cc2d1','{"fail_item":3,"item":2}');
INSERT INTO run_inputs VALUES('01a24d2a-3b64-7049-967f-bb7bc5ed04e3','{"fail_item":3,"item":3}');
INSERT INTO run_inputs VALUES('corpus-gift-skipped','{"gift":false}');
INSERT INTO run_inputs VALUES('01a24d2a-3b6b-7423-8818-92e4a10cb110','{"partner":"Ωmega Freight"}');
INSERT INTO run_inputs VALUES('01a24d2a-3b78-7e7a-b773-38c334af7d95','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1002,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
CREATE TABLE jobs (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      queue         TEXT NOT NULL,
      kind          TEXT NOT NULL,
      run_id        TEXT NOT NULL,
      reactor       TEXT NOT NULL,
      run_at        INTEGER NOT NULL,
      snoozes       INTEGER NOT NULL DEFAULT 0,
      deliveries    INTEGER NOT NULL DEFAULT 0,
      lease_owner   TEXT,
      lease_expires INTEGER NOT NULL DEFAULT 0
    );
INSERT INTO jobs VALUES(2,'CorpusRetry','resume','01a24d2a-3b6b-7423-8818-92e4a10cb110','CorpusRetry',2111950943087,0,0,NULL,0);
INSERT INTO jobs VALUES(3,'CorpusOrder','start','01a24d2a-3b78-7e7a-b773-38c334af7d95','CorpusOrder',1796590943096,0,0,NULL,0);
CREATE TABLE counters (
      name  TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
INSERT INTO counters VALUES('fencing_token',11);
CREATE TABLE maps (
      map_id          TEXT PRIMARY KEY,
      owner_id        TEXT NOT NULL,
      owner_reactor   TEXT NOT NULL,
      queue           TEXT NOT NULL,
      element_reactor TEXT NOT NULL,
      total           INTEGER NOT NULL,
      batch_size      INTEGER NOT NULL,
      atomic          INTEGER NOT NULL,
      state           TEXT NOT NULL,
      released        INTEGER NOT NULL,
      done            INTEGER NOT NULL,
      failed          INTEGER NOT NULL,
      undone          INTEGER NOT NULL
    , interrupted INTEGER NOT NULL DEFAULT 0, cancelled INTEGER NOT NULL DEFAULT 0) WITHOUT ROWID;
CREATE TABLE map_slots (
      map_id TEXT NOT NULL,
      idx    INTEGER NOT NULL,
      state  TEXT NOT NULL,
      body   TEXT NOT NULL, interrupted INTEGER NOT NULL DEFAULT 0,
      PRIMARY KEY (map_id, idx)
    ) WITHOUT ROWID;
CREATE TABLE schedules (
      name          TEXT PRIMARY KEY,
      reactor       TEXT NOT NULL,
      every_ms      INTEGER NOT NULL,
      cron          TEXT NOT NULL,
      inputs        TEXT NOT NULL,
      missed        TEXT NOT NULL,
      grace_ms      INTEGER NOT NULL,
      last_fired_ms INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
CREATE TABLE hold_holders (
      key    TEXT NOT NULL,
      holder TEXT NOT NULL,
      claim  TEXT NOT NULL,
      kind   TEXT NOT NULL,
      lim    INTEGER NOT NULL,
      PRIMARY KEY (key, holder)
    ) WITHOUT ROWID;
CREATE TABLE rate_windows (
      key       TEXT NOT NULL,
      window_ms INTEGER NOT NULL,
      bucket_ms INTEGER NOT NULL,
      count     INTEGER NOT NULL,
      PRIMARY KEY (key, window_ms, bucket_ms)
    ) WITHOUT ROWID;
CREATE TABLE rate_charges (
      key       TEXT NOT NULL,
      window_ms INTEGER NOT NULL,
      bucket_ms INTEGER NOT NULL,
      charge_id TEXT NOT NULL,
      PRIMARY KEY (key, window_ms, bucket_ms, charge_id)
    ) WITHOUT ROWID;
CREATE TABLE period_marks (
      mark   TEXT PRIMARY KEY,
      run_id TEXT NOT NULL
    ) WITHOUT ROWID;
CREATE TABLE ordered_chains (
      key        TEXT PRIMARY KEY,
      next_seq   INTEGER NOT NULL,
      failed     INTEGER NOT NULL,
      failed_run TEXT NOT NULL
    ) WITHOUT ROWID;
CREATE TABLE ordered_members (
      key    TEXT NOT NULL,
      seq    INTEGER NOT NULL,
      run_id TEXT NOT NULL,
      PRIMARY KEY (key, seq)
    ) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS "leases" (
      key        TEXT PRIMARY KEY,
      owner      TEXT,
      token      INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
INSERT INTO leases VALUES('run:01a24d2a-3b6b-7423-8818-92e4a10cb110',NULL,11,1796590943087);
INSERT INTO leases VALUES('run:corpus-batch-atomic-failed',NULL,8,1796590943078);
INSERT INTO leases VALUES('run:corpus-batch-completed',NULL,7,1796590943073);
INSERT INTO leases VALUES('run:corpus-crash-interrupted','01a24d2a-3b41-7d87-a8e9-3a567433f3c1',1,1796590944041);
INSERT INTO leases VALUES('run:corpus-gift-skipped',NULL,9,1796590943080);
INSERT INTO leases VALUES('run:corpus-order-completed',NULL,2,1796590943056);
INSERT INTO leases VALUES('run:corpus-order-failed',NULL,3,1796590943060);
INSERT INTO leases VALUES('run:corpus-review-halted',NULL,4,1796590943062);
INSERT INTO leases VALUES('run:corpus-shipment-child-failed',NULL,6,1796590943069);
INSERT INTO leases VALUES('run:corpus-shipment-completed',NULL,5,1796590943065);
INSERT INTO leases VALUES('serving:CorpusRetry',NULL,10,1796590943096);
CREATE TABLE IF NOT EXISTS "runs" (
      key            INTEGER PRIMARY KEY,
      id             TEXT NOT NULL UNIQUE,
      root_id        TEXT NOT NULL,
      parent_id      TEXT NOT NULL DEFAULT '',
      reactor        TEXT NOT NULL,
      status         TEXT NOT NULL,
      fingerprint    TEXT NOT NULL DEFAULT '',
      schema_version INTEGER NOT NULL,
      body           TEXT NOT NULL,
      updated_at     INTEGER NOT NULL,
      expires_at     INTEGER NOT NULL,
      wake_at        INTEGER NOT NULL DEFAULT 0,
      exec_token     INTEGER NOT NULL DEFAULT 0,
      exec_worker    TEXT NOT NULL DEFAULT '',
      deliveries     INTEGER NOT NULL DEFAULT 0
    );
INSERT INTO runs VALUES(1,'corpus-crash-interrupted','corpus-crash-interrupted','','CorpusCrash','running','e3d84ae282f2a8b2',4,'{"created_at_ms":1796590943041,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796590943044,2427310943044,0,1,'vm:19514',0);
INSERT INTO runs VALUES(2,'corpus-order-completed','corpus-order-completed','','CorpusOrder','completed','26c9a10376775db5',4,'{"created_at_ms":1796590943052,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"step_count":3}',1796590943056,2427310943056,0,2,'vm:19513',0);
INSERT INTO runs VALUES(3,'corpus-order-failed','corpus-order-failed','','CorpusOrder','failed','26c9a10376775db5',4,'{"created_at_ms":1796590943057,"error":{"attempts":1,"details":{"carrier":"ÜberFracht","code":503},"exception_type":"","inputs":{"amount":9007199254740993,"card":"[REDACTED]","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"},"kind":"step_failed","message":"carrier refused the parcel","reactor":"CorpusOrder","retryable":false,"rollback_failures":[{"kind":"undo","message":"warehouse offline: reservation kept","reason":"returned_failure","step":"reserve"}],"step":"ship","validation_errors":[]},"failed_step":2,"next_completion_seq":3,"path":"","value":null,"step_count":3}',1796590943060,2427310943060,0,3,'vm:19513',0);
INSERT INTO runs VALUES(4,'corpus-review-halted','corpus-review-halted','','CorpusReview','halted','63cdab47c1e96488',4,'{"created_at_ms":1796590943061,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","value":{"flags":["velocity","geo"],"reason":"manual review","score":87},"step_count":3}',1796590943062,2427310943062,0,4,'vm:19513',0);
INSERT INTO runs VALUES(5,'corpus-shipment-completed','corpus-shipment-completed','','CorpusShipment','completed','8af30155437a610c',4,'{"created_at_ms":1796590943063,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":{"notify":{"sent":true,"tracking":"TRK-P-2001"},"prepare":{"prepared":true},"ship":{"tracking":"TRK-P-2001"}},"step_count":3}',1796590943065,2427310943065,0,5,'vm:19513',0);
INSERT INTO runs VALUES(6,'01a24d2a-3b58-708a-934d-10c5da7543d9','corpus-shipment-completed','corpus-shipment-completed','CorpusShipping','completed','0c382f2884881fac',4,'{"created_at_ms":1796590943064,"error":null,"failed_step":null,"next_completion_seq":3,"path":"ship","value":{"tracking":"TRK-P-2001"},"trace_parent":"00-1dd0fd3926f418d0742fd3a559425914-44686b71f3ae7a6f-01","step_count":2}',1796590943064,2427310943064,0,0,'',0);
INSERT INTO runs VALUES(7,'corpus-shipment-child-failed','corpus-shipment-child-failed','','CorpusShipment','failed','8af30155437a610c',4,'{"created_at_ms":1796590943065,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796590943069,2427310943069,0,6,'vm:19513',0);
INSERT INTO runs VALUES(8,'01a24d2a-3b5a-7c4a-b32a-7b2dffa6614b','corpus-shipment-child-failed','corpus-shipment-child-failed','CorpusShipping','failed','0c382f2884881fac',4,'{"created_at_ms":1796590943066,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"ship","value":null,"trace_parent":"00-c02681bd1ac81a3f34bc92e615ea125b-a7a45aced3e0f368-01","step_count":2}',1796590943066,2427310943068,0,0,'',0);
INSERT INTO runs VALUES(9,'corpus-batch-completed','corpus-batch-completed','','CorpusBatch','completed','1758aec9754397fc',4,'{"created_at_ms":1796590943070,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":[10,20,30],"step_count":3}',1796590943073,2427310943073,0,7,'vm:19513',0);
INSERT INTO runs VALUES(10,'01a24d2a-3b5f-7035-8eea-ee24bd19ec3c','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796590943071,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","value":10,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796590943071,2427310943071,0,0,'',0);
INSERT INTO runs VALUES(11,'01a24d2a-3b5f-7b46-a977-4d4f3a37d39b','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796590943071,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","value":20,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796590943071,2427310943072,0,0,'',0);
INSERT INTO runs VALUES(12,'01a24d2a-3b60-74d9-9ff6-f20e277825aa','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796590943072,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[2]","value":30,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796590943072,2427310943072,0,0,'',0);
INSERT INTO runs VALUES(13,'corpus-batch-atomic-failed','corpus-batch-atomic-failed','','CorpusBatch','failed','1758aec9754397fc',4,'{"created_at_ms":1796590943073,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"lines":[1,2,3,4]},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796590943078,2427310943078,0,8,'vm:19513',0);
INSERT INTO runs VALUES(14,'01a24d2a-3b62-7a5c-9640-45342ccf99dd','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796590943074,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","value":10,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796590943074,2427310943077,0,0,'',0);
INSERT INTO runs VALUES(15,'01a24d2a-3b63-7716-86a7-9163fe3cc2d1','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796590943075,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","value":20,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796590943075,2427310943077,0,0,'',0);
INSERT INTO runs VALUES(16,'01a24d2a-3b64-7049-967f-bb7bc5ed04e3','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','failed','634a73515335e685',4,'{"created_at_ms":1796590943076,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"item":3},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":0,"next_completion_seq":1,"path":"items[2]","value":null,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796590943076,2427310943076,0,0,'',0);
INSERT INTO runs VALUES(17,'corpus-gift-skipped','corpus-gift-skipped','','CorpusGift','completed','40a6b67bbfab7c3f',4,'{"created_at_ms":1796590943079,"error":null,"failed_step":null,"next_completion_seq":3,"path":"","value":{"check":"checked","confirm":{"wrap":{"reason":"not a gift"}},"wrap":{"reason":"not a gift"}},"step_count":3}',1796590943080,2427310943080,0,9,'vm:19513',0);
INSERT INTO runs VALUES(18,'01a24d2a-3b6b-7423-8818-92e4a10cb110','01a24d2a-3b6b-7423-8818-92e4a10cb110','','CorpusRetry','waiting','e91e33479d9ae329',4,'{"created_at_ms":1796590943083,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","suspension":{"children":0,"kind":"until","on":"","until_ms":2111950943087},"value":null,"step_count":2}',1796590943087,2427310943087,2111950943087,11,'vm:19513',0);
INSERT INTO runs VALUES(19,'01a24d2a-3b78-7e7a-b773-38c334af7d95','01a24d2a-3b78-7e7a-b773-38c334af7d95','','CorpusOrder','enqueued','26c9a10376775db5',4,'{"created_at_ms":1796590943096,"error":null,"failed_step":null,"next_completion_seq":1,"path":"","value":null,"step_count":3}',1796590943096,2427310943096,0,0,'',0);
CREATE TABLE run_rows (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
INSERT INTO run_rows VALUES(2097152,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943044,"name":"first","result":1,"retry_at_ms":0,"started_at_ms":1796590943044,"status":"completed","token":1,"worker":"vm:19514"}');
INSERT INTO run_rows VALUES(2097153,'{"at_ms":1796590943044,"attempt":1,"message":"","outcome":"success","step":"first","type":"run","worker":"vm:19514","token":1}');
INSERT INTO run_rows VALUES(2097154,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"second","result":null,"retry_at_ms":0,"started_at_ms":1796590943044,"status":"running","token":1,"worker":"vm:19514"}');
INSERT INTO run_rows VALUES(4194304,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943055,"name":"reserve","result":{"city":"Köln","reservation":"R-1001"},"retry_at_ms":0,"started_at_ms":1796590943055,"status":"completed","token":2,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(4194305,'{"at_ms":1796590943055,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run","worker":"vm:19513","token":2}');
INSERT INTO run_rows VALUES(4194306,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943056,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796590943055,"status":"completed","token":2,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(4194307,'{"at_ms":1796590943056,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run","worker":"vm:19513","token":2}');
INSERT INTO run_rows VALUES(4194308,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796590943056,"name":"ship","result":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"retry_at_ms":0,"started_at_ms":1796590943056,"status":"completed","token":2,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(4194309,'{"at_ms":1796590943056,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run","worker":"vm:19513","token":2}');
INSERT INTO run_rows VALUES(6291456,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943058,"name":"reserve","result":{"city":"Köln","reservation":"R-1003"},"retry_at_ms":0,"started_at_ms":1796590943058,"status":"undone","token":3,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(6291457,'{"at_ms":1796590943058,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(6291458,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943058,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796590943058,"status":"undone","token":3,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(6291459,'{"at_ms":1796590943058,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(6291460,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"carrier refused the parcel","finished_at_ms":1796590943059,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796590943058,"status":"compensated","token":3,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(6291461,'{"at_ms":1796590943059,"attempt":1,"message":"carrier refused the parcel","outcome":"failure","step":"ship","type":"run","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(6291463,'{"at_ms":1796590943059,"attempt":1,"message":"","outcome":"success","step":"ship","type":"compensate","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(6291465,'{"at_ms":1796590943059,"attempt":1,"message":"","outcome":"success","step":"charge","type":"undo","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(6291467,'{"at_ms":1796590943059,"attempt":1,"message":"warehouse offline: reservation kept","outcome":"failure","step":"reserve","type":"undo","worker":"vm:19513","token":3}');
INSERT INTO run_rows VALUES(8388608,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943062,"name":"screen","result":{"score":87},"retry_at_ms":0,"started_at_ms":1796590943062,"status":"completed","token":4,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(8388609,'{"at_ms":1796590943062,"attempt":1,"message":"","outcome":"success","step":"screen","type":"run","worker":"vm:19513","token":4}');
INSERT INTO run_rows VALUES(8388610,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796590943062,"name":"review","result":{"flags":["velocity","geo"],"reason":"manual review","score":87},"retry_at_ms":0,"started_at_ms":1796590943062,"status":"halted","token":4,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(8388611,'{"at_ms":1796590943062,"attempt":1,"message":"","outcome":"halt","step":"review","type":"run","worker":"vm:19513","token":4}');
INSERT INTO run_rows VALUES(10485760,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943063,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796590943063,"status":"completed","token":5,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(10485761,'{"at_ms":1796590943063,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:19513","token":5}');
INSERT INTO run_rows VALUES(10485762,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943065,"name":"ship","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796590943063,"status":"completed","token":5,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(10485763,'{"at_ms":1796590943064,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run","worker":"vm:19513","token":5}');
INSERT INTO run_rows VALUES(10485764,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796590943065,"name":"notify","result":{"sent":true,"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796590943065,"status":"completed","token":5,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(10485765,'{"at_ms":1796590943064,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"run","worker":"vm:19513","token":5}');
INSERT INTO run_rows VALUES(10485767,'{"at_ms":1796590943065,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run","worker":"vm:19513","token":5}');
INSERT INTO run_rows VALUES(10485769,'{"at_ms":1796590943065,"attempt":1,"message":"","outcome":"success","step":"notify","type":"run","worker":"vm:19513","token":5}');
INSERT INTO run_rows VALUES(12582912,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943064,"name":"pack","result":{"parcel":"P-2001"},"retry_at_ms":0,"started_at_ms":1796590943064,"status":"completed","token":5,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(12582914,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943064,"name":"label","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796590943064,"status":"completed","token":5,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(14680064,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943066,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796590943066,"status":"undone","token":6,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(14680065,'{"at_ms":1796590943066,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680066,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796590943068,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796590943066,"status":"compensated","token":6,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(14680067,'{"at_ms":1796590943067,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680069,'{"at_ms":1796590943067,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship/label","type":"run","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680071,'{"at_ms":1796590943067,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"compensate","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680073,'{"at_ms":1796590943068,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"undo","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680075,'{"at_ms":1796590943068,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship","type":"run","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(14680077,'{"at_ms":1796590943069,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"undo","worker":"vm:19513","token":6}');
INSERT INTO run_rows VALUES(16777216,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943067,"name":"pack","result":{"parcel":"P-2002"},"retry_at_ms":0,"started_at_ms":1796590943067,"status":"undone","token":6,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(16777218,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796590943067,"name":"label","result":null,"retry_at_ms":0,"started_at_ms":1796590943067,"status":"compensated","token":6,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(18874368,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943070,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796590943070,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(18874369,'{"at_ms":1796590943070,"attempt":1,"message":"","outcome":"success","step":"open","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(18874370,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943072,"name":"items","result":[10,20,30],"retry_at_ms":0,"started_at_ms":1796590943070,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(18874371,'{"at_ms":1796590943071,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(18874372,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796590943073,"name":"close","result":"closed","retry_at_ms":0,"started_at_ms":1796590943072,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(18874373,'{"at_ms":1796590943072,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(18874375,'{"at_ms":1796590943072,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(18874377,'{"at_ms":1796590943072,"attempt":1,"message":"","outcome":"success","step":"items","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(18874379,'{"at_ms":1796590943073,"attempt":1,"message":"","outcome":"success","step":"close","type":"run","worker":"vm:19513","token":7}');
INSERT INTO run_rows VALUES(20971520,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943071,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796590943071,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(23068672,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943072,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796590943072,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(25165824,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943072,"name":"charge","result":30,"retry_at_ms":0,"started_at_ms":1796590943072,"status":"completed","token":7,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(27262976,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943074,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796590943074,"status":"undone","token":8,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(27262977,'{"at_ms":1796590943074,"attempt":1,"message":"","outcome":"success","step":"open","type":"run","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262978,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796590943077,"name":"items","result":null,"retry_at_ms":0,"started_at_ms":1796590943074,"status":"compensated","token":8,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(27262979,'{"at_ms":1796590943074,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262981,'{"at_ms":1796590943075,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262983,'{"at_ms":1796590943076,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items[2]/charge","type":"run","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262985,'{"at_ms":1796590943076,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"compensate","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262987,'{"at_ms":1796590943077,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"undo","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262989,'{"at_ms":1796590943077,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"undo","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262991,'{"at_ms":1796590943077,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items","type":"run","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(27262993,'{"at_ms":1796590943078,"attempt":1,"message":"","outcome":"success","step":"open","type":"undo","worker":"vm:19513","token":8}');
INSERT INTO run_rows VALUES(29360128,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943074,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796590943074,"status":"undone","token":8,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(31457280,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943075,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796590943075,"status":"undone","token":8,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(33554432,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796590943076,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":1796590943076,"status":"compensated","token":8,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(35651584,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943079,"name":"check","result":"checked","retry_at_ms":0,"started_at_ms":1796590943079,"status":"completed","token":9,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(35651585,'{"at_ms":1796590943079,"attempt":1,"message":"","outcome":"success","step":"check","type":"run","worker":"vm:19513","token":9}');
INSERT INTO run_rows VALUES(35651586,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796590943080,"name":"wrap","result":{"reason":"not a gift"},"retry_at_ms":0,"started_at_ms":1796590943079,"status":"skipped","token":9,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(35651587,'{"at_ms":1796590943080,"attempt":1,"message":"","outcome":"skipped","step":"wrap","type":"run","worker":"vm:19513","token":9}');
INSERT INTO run_rows VALUES(35651588,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796590943080,"name":"confirm","result":{"wrap":{"reason":"not a gift"}},"retry_at_ms":0,"started_at_ms":1796590943080,"status":"completed","token":9,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(35651589,'{"at_ms":1796590943080,"attempt":1,"message":"","outcome":"success","step":"confirm","type":"run","worker":"vm:19513","token":9}');
INSERT INTO run_rows VALUES(37748736,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796590943086,"name":"prepare","result":"prepared","retry_at_ms":0,"started_at_ms":1796590943086,"status":"completed","token":11,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(37748737,'{"at_ms":1796590943086,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:19513","token":11}');
INSERT INTO run_rows VALUES(37748738,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"partner unavailable","finished_at_ms":1796590943087,"name":"call_partner","result":null,"retry_at_ms":2111950943087,"started_at_ms":1796590943086,"status":"retry_scheduled","token":11,"worker":"vm:19513"}');
INSERT INTO run_rows VALUES(37748739,'{"at_ms":1796590943087,"attempt":1,"message":"partner unavailable","outcome":"failure","step":"call_partner","type":"run","worker":"vm:19513","token":11}');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('jobs',3);
CREATE INDEX jobs_due ON jobs(queue, run_at, id);
CREATE INDEX jobs_run_id ON jobs(run_id);
CREATE INDEX hold_holders_holder ON hold_holders(holder);
CREATE INDEX runs_root_id ON runs(root_id);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX runs_roots_status ON runs(parent_id, status) WHERE parent_id = '';
COMMIT;
