PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
INSERT INTO meta VALUES('schema_version',11);
CREATE TABLE run_inputs (
      run_id TEXT PRIMARY KEY,
      inputs TEXT NOT NULL
    );
INSERT INTO run_inputs VALUES('corpus-crash-interrupted','{"batch":"b-7"}');
INSERT INTO run_inputs VALUES('corpus-order-completed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1001,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-order-failed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-review-halted','{"applicant":"Łukasz"}');
INSERT INTO run_inputs VALUES('corpus-shipment-completed','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('01a24b10-9c70-75c2-99f9-309656e4af5c','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('corpus-shipment-child-failed','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('01a24b10-9c73-711d-9f79-b538c12eeacc','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('corpus-batch-completed','{"fail_item":-1,"lines":[1,2,3]}');
INSERT INTO run_inputs VALUES('01a24b10-9c77-768c-a329-acc6fa286ea5','{"fail_item":-1,"item":1}');
INSERT INTO run_inputs VALUES('01a24b10-9c78-725b-a782-0b28925c3e2d','{"fail_item":-1,"item":2}');
INSERT INTO run_inputs VALUES('01a24b10-9c78-7c55-b0b1-900a7c1e88d8','{"fail_item":-1,"item":3}');
INSERT INTO run_inputs VALUES('corpus-batch-atomic-failed','{"fail_item":3,"lines":[1,2,3,4]}');
INSERT INTO run_inputs VALUES('01a24b10-9c7b-734c-8d5e-f5e1ee2693bf','{"fail_item":3,"item":1}');
INSERT INTO run_inputs VALUES('01a24b10-9c7b-7cc1-9cb6-14078370ce67','{"fail_item":3,"item":2}');
INSERT INTO run_inputs VALUES('01a24b10-9c7c-76cf-ae16-221007118661','{"fail_item":3,"item":3}');
INSERT INTO run_inputs VALUES('corpus-gift-skipped','{"gift":false}');
INSERT INTO run_inputs VALUES('01a24b10-9c83-7775-81f9-b9c946123b01','{"partner":"Ωmega Freight"}');
INSERT INTO run_inputs VALUES('01a24b10-9c8f-7cc0-a6d5-ed5ff3d6ed02','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1002,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
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
INSERT INTO jobs VALUES(2,'CorpusRetry','resume','01a24b10-9c83-7775-81f9-b9c946123b01','CorpusRetry',2111915709575,0,0,NULL,0);
INSERT INTO jobs VALUES(3,'CorpusOrder','start','01a24b10-9c8f-7cc0-a6d5-ed5ff3d6ed02','CorpusOrder',1796555709583,0,0,NULL,0);
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
INSERT INTO leases VALUES('run:01a24b10-9c83-7775-81f9-b9c946123b01',NULL,11,1796555709575);
INSERT INTO leases VALUES('run:corpus-batch-atomic-failed',NULL,8,1796555709567);
INSERT INTO leases VALUES('run:corpus-batch-completed',NULL,7,1796555709561);
INSERT INTO leases VALUES('run:corpus-crash-interrupted','01a24b10-9c5d-77f2-a592-daa3306bdd58',1,1796555710533);
INSERT INTO leases VALUES('run:corpus-gift-skipped',NULL,9,1796555709569);
INSERT INTO leases VALUES('run:corpus-order-completed',NULL,2,1796555709545);
INSERT INTO leases VALUES('run:corpus-order-failed',NULL,3,1796555709548);
INSERT INTO leases VALUES('run:corpus-review-halted',NULL,4,1796555709551);
INSERT INTO leases VALUES('run:corpus-shipment-child-failed',NULL,6,1796555709557);
INSERT INTO leases VALUES('run:corpus-shipment-completed',NULL,5,1796555709553);
INSERT INTO leases VALUES('serving:CorpusRetry',NULL,10,1796555709582);
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
INSERT INTO runs VALUES(1,'corpus-crash-interrupted','corpus-crash-interrupted','','CorpusCrash','running','e3d84ae282f2a8b2',4,'{"created_at_ms":1796555709533,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796555709535,2427275709535,0,1,'vm:10265',0);
INSERT INTO runs VALUES(2,'corpus-order-completed','corpus-order-completed','','CorpusOrder','completed','26c9a10376775db5',4,'{"created_at_ms":1796555709541,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"step_count":3}',1796555709545,2427275709545,0,2,'vm:10264',0);
INSERT INTO runs VALUES(3,'corpus-order-failed','corpus-order-failed','','CorpusOrder','failed','26c9a10376775db5',4,'{"created_at_ms":1796555709545,"error":{"attempts":1,"details":{"carrier":"ÜberFracht","code":503},"exception_type":"","inputs":{"amount":9007199254740993,"card":"[REDACTED]","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"},"kind":"step_failed","message":"carrier refused the parcel","reactor":"CorpusOrder","retryable":false,"rollback_failures":[{"kind":"undo","message":"warehouse offline: reservation kept","reason":"returned_failure","step":"reserve"}],"step":"ship","validation_errors":[]},"failed_step":2,"next_completion_seq":3,"path":"","value":null,"step_count":3}',1796555709548,2427275709548,0,3,'vm:10264',0);
INSERT INTO runs VALUES(4,'corpus-review-halted','corpus-review-halted','','CorpusReview','halted','63cdab47c1e96488',4,'{"created_at_ms":1796555709549,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","value":{"flags":["velocity","geo"],"reason":"manual review","score":87},"step_count":3}',1796555709551,2427275709551,0,4,'vm:10264',0);
INSERT INTO runs VALUES(5,'corpus-shipment-completed','corpus-shipment-completed','','CorpusShipment','completed','8af30155437a610c',4,'{"created_at_ms":1796555709551,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":{"notify":{"sent":true,"tracking":"TRK-P-2001"},"prepare":{"prepared":true},"ship":{"tracking":"TRK-P-2001"}},"step_count":3}',1796555709553,2427275709553,0,5,'vm:10264',0);
INSERT INTO runs VALUES(6,'01a24b10-9c70-75c2-99f9-309656e4af5c','corpus-shipment-completed','corpus-shipment-completed','CorpusShipping','completed','0c382f2884881fac',4,'{"created_at_ms":1796555709552,"error":null,"failed_step":null,"next_completion_seq":3,"path":"ship","value":{"tracking":"TRK-P-2001"},"trace_parent":"00-1dd0fd3926f418d0742fd3a559425914-44686b71f3ae7a6f-01","step_count":2}',1796555709552,2427275709553,0,0,'',0);
INSERT INTO runs VALUES(7,'corpus-shipment-child-failed','corpus-shipment-child-failed','','CorpusShipment','failed','8af30155437a610c',4,'{"created_at_ms":1796555709554,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796555709557,2427275709557,0,6,'vm:10264',0);
INSERT INTO runs VALUES(8,'01a24b10-9c73-711d-9f79-b538c12eeacc','corpus-shipment-child-failed','corpus-shipment-child-failed','CorpusShipping','failed','0c382f2884881fac',4,'{"created_at_ms":1796555709555,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"ship","value":null,"trace_parent":"00-c02681bd1ac81a3f34bc92e615ea125b-a7a45aced3e0f368-01","step_count":2}',1796555709555,2427275709556,0,0,'',0);
INSERT INTO runs VALUES(9,'corpus-batch-completed','corpus-batch-completed','','CorpusBatch','completed','1758aec9754397fc',4,'{"created_at_ms":1796555709558,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","value":[10,20,30],"step_count":3}',1796555709561,2427275709561,0,7,'vm:10264',0);
INSERT INTO runs VALUES(10,'01a24b10-9c77-768c-a329-acc6fa286ea5','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796555709559,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","value":10,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796555709559,2427275709559,0,0,'',0);
INSERT INTO runs VALUES(11,'01a24b10-9c78-725b-a782-0b28925c3e2d','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796555709560,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","value":20,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796555709560,2427275709560,0,0,'',0);
INSERT INTO runs VALUES(12,'01a24b10-9c78-7c55-b0b1-900a7c1e88d8','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796555709560,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[2]","value":30,"trace_parent":"00-bb2ddfbbffce237a0f27244a81b56d8e-b2055745056a6e51-01","step_count":1}',1796555709560,2427275709561,0,0,'',0);
INSERT INTO runs VALUES(13,'corpus-batch-atomic-failed','corpus-batch-atomic-failed','','CorpusBatch','failed','1758aec9754397fc',4,'{"created_at_ms":1796555709562,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"lines":[1,2,3,4]},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","value":null,"step_count":3}',1796555709567,2427275709567,0,8,'vm:10264',0);
INSERT INTO runs VALUES(14,'01a24b10-9c7b-734c-8d5e-f5e1ee2693bf','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796555709563,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","value":10,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796555709563,2427275709565,0,0,'',0);
INSERT INTO runs VALUES(15,'01a24b10-9c7b-7cc1-9cb6-14078370ce67','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',4,'{"created_at_ms":1796555709563,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","value":20,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796555709563,2427275709565,0,0,'',0);
INSERT INTO runs VALUES(16,'01a24b10-9c7c-76cf-ae16-221007118661','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','failed','634a73515335e685',4,'{"created_at_ms":1796555709564,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"item":3},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":0,"next_completion_seq":1,"path":"items[2]","value":null,"trace_parent":"00-f81cc9586434d29a25f2fa70f773d036-f128a5a3acf92371-01","step_count":1}',1796555709564,2427275709565,0,0,'',0);
INSERT INTO runs VALUES(17,'corpus-gift-skipped','corpus-gift-skipped','','CorpusGift','completed','40a6b67bbfab7c3f',4,'{"created_at_ms":1796555709567,"error":null,"failed_step":null,"next_completion_seq":3,"path":"","value":{"check":"checked","confirm":{"wrap":{"reason":"not a gift"}},"wrap":{"reason":"not a gift"}},"step_count":3}',1796555709569,2427275709569,0,9,'vm:10264',0);
INSERT INTO runs VALUES(18,'01a24b10-9c83-7775-81f9-b9c946123b01','01a24b10-9c83-7775-81f9-b9c946123b01','','CorpusRetry','waiting','e91e33479d9ae329',4,'{"created_at_ms":1796555709571,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","suspension":{"children":0,"kind":"until","on":"","until_ms":2111915709575},"value":null,"step_count":2}',1796555709575,2427275709575,2111915709575,11,'vm:10264',0);
INSERT INTO runs VALUES(19,'01a24b10-9c8f-7cc0-a6d5-ed5ff3d6ed02','01a24b10-9c8f-7cc0-a6d5-ed5ff3d6ed02','','CorpusOrder','enqueued','26c9a10376775db5',4,'{"created_at_ms":1796555709583,"error":null,"failed_step":null,"next_completion_seq":1,"path":"","value":null,"step_count":3}',1796555709583,2427275709583,0,0,'',0);
CREATE TABLE IF NOT EXISTS "steps" (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
INSERT INTO steps VALUES(1048576,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709535,"name":"first","result":1,"retry_at_ms":0,"started_at_ms":1796555709535,"status":"completed","token":1,"worker":"vm:10265"}');
INSERT INTO steps VALUES(1048577,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"second","result":null,"retry_at_ms":0,"started_at_ms":1796555709535,"status":"running","token":1,"worker":"vm:10265"}');
INSERT INTO steps VALUES(2097152,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709544,"name":"reserve","result":{"city":"Köln","reservation":"R-1001"},"retry_at_ms":0,"started_at_ms":1796555709544,"status":"completed","token":2,"worker":"vm:10264"}');
INSERT INTO steps VALUES(2097153,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709544,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796555709544,"status":"completed","token":2,"worker":"vm:10264"}');
INSERT INTO steps VALUES(2097154,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796555709545,"name":"ship","result":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"retry_at_ms":0,"started_at_ms":1796555709544,"status":"completed","token":2,"worker":"vm:10264"}');
INSERT INTO steps VALUES(3145728,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709546,"name":"reserve","result":{"city":"Köln","reservation":"R-1003"},"retry_at_ms":0,"started_at_ms":1796555709546,"status":"undone","token":3,"worker":"vm:10264"}');
INSERT INTO steps VALUES(3145729,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709547,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796555709546,"status":"undone","token":3,"worker":"vm:10264"}');
INSERT INTO steps VALUES(3145730,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"carrier refused the parcel","finished_at_ms":1796555709547,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796555709547,"status":"compensated","token":3,"worker":"vm:10264"}');
INSERT INTO steps VALUES(4194304,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709550,"name":"screen","result":{"score":87},"retry_at_ms":0,"started_at_ms":1796555709550,"status":"completed","token":4,"worker":"vm:10264"}');
INSERT INTO steps VALUES(4194305,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796555709551,"name":"review","result":{"flags":["velocity","geo"],"reason":"manual review","score":87},"retry_at_ms":0,"started_at_ms":1796555709550,"status":"halted","token":4,"worker":"vm:10264"}');
INSERT INTO steps VALUES(5242880,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709552,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796555709552,"status":"completed","token":5,"worker":"vm:10264"}');
INSERT INTO steps VALUES(5242881,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709553,"name":"ship","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796555709552,"status":"completed","token":5,"worker":"vm:10264"}');
INSERT INTO steps VALUES(5242882,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796555709553,"name":"notify","result":{"sent":true,"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796555709553,"status":"completed","token":5,"worker":"vm:10264"}');
INSERT INTO steps VALUES(6291456,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709552,"name":"pack","result":{"parcel":"P-2001"},"retry_at_ms":0,"started_at_ms":1796555709552,"status":"completed","token":5,"worker":"vm:10264"}');
INSERT INTO steps VALUES(6291457,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709553,"name":"label","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796555709552,"status":"completed","token":5,"worker":"vm:10264"}');
INSERT INTO steps VALUES(7340032,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709554,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796555709554,"status":"undone","token":6,"worker":"vm:10264"}');
INSERT INTO steps VALUES(7340033,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796555709556,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796555709554,"status":"compensated","token":6,"worker":"vm:10264"}');
INSERT INTO steps VALUES(8388608,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709555,"name":"pack","result":{"parcel":"P-2002"},"retry_at_ms":0,"started_at_ms":1796555709555,"status":"undone","token":6,"worker":"vm:10264"}');
INSERT INTO steps VALUES(8388609,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796555709555,"name":"label","result":null,"retry_at_ms":0,"started_at_ms":1796555709555,"status":"compensated","token":6,"worker":"vm:10264"}');
INSERT INTO steps VALUES(9437184,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709559,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796555709559,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(9437185,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709561,"name":"items","result":[10,20,30],"retry_at_ms":0,"started_at_ms":1796555709559,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(9437186,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796555709561,"name":"close","result":"closed","retry_at_ms":0,"started_at_ms":1796555709561,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(10485760,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709559,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796555709559,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(11534336,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709560,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796555709560,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(12582912,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709561,"name":"charge","result":30,"retry_at_ms":0,"started_at_ms":1796555709561,"status":"completed","token":7,"worker":"vm:10264"}');
INSERT INTO steps VALUES(13631488,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709562,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796555709562,"status":"undone","token":8,"worker":"vm:10264"}');
INSERT INTO steps VALUES(13631489,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796555709566,"name":"items","result":null,"retry_at_ms":0,"started_at_ms":1796555709562,"status":"compensated","token":8,"worker":"vm:10264"}');
INSERT INTO steps VALUES(14680064,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709563,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796555709563,"status":"undone","token":8,"worker":"vm:10264"}');
INSERT INTO steps VALUES(15728640,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709564,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796555709564,"status":"undone","token":8,"worker":"vm:10264"}');
INSERT INTO steps VALUES(16777216,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796555709564,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":1796555709564,"status":"compensated","token":8,"worker":"vm:10264"}');
INSERT INTO steps VALUES(17825792,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709568,"name":"check","result":"checked","retry_at_ms":0,"started_at_ms":1796555709568,"status":"completed","token":9,"worker":"vm:10264"}');
INSERT INTO steps VALUES(17825793,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796555709568,"name":"wrap","result":{"reason":"not a gift"},"retry_at_ms":0,"started_at_ms":1796555709568,"status":"skipped","token":9,"worker":"vm:10264"}');
INSERT INTO steps VALUES(17825794,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796555709569,"name":"confirm","result":{"wrap":{"reason":"not a gift"}},"retry_at_ms":0,"started_at_ms":1796555709568,"status":"completed","token":9,"worker":"vm:10264"}');
INSERT INTO steps VALUES(18874368,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796555709574,"name":"prepare","result":"prepared","retry_at_ms":0,"started_at_ms":1796555709574,"status":"completed","token":11,"worker":"vm:10264"}');
INSERT INTO steps VALUES(18874369,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"partner unavailable","finished_at_ms":1796555709575,"name":"call_partner","result":null,"retry_at_ms":2111915709575,"started_at_ms":1796555709574,"status":"retry_scheduled","token":11,"worker":"vm:10264"}');
CREATE TABLE IF NOT EXISTS "trace" (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
INSERT INTO trace VALUES(1048576,'{"at_ms":1796555709535,"attempt":1,"message":"","outcome":"success","step":"first","type":"run","worker":"vm:10265","token":1}');
INSERT INTO trace VALUES(2097152,'{"at_ms":1796555709544,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run","worker":"vm:10264","token":2}');
INSERT INTO trace VALUES(2097153,'{"at_ms":1796555709544,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run","worker":"vm:10264","token":2}');
INSERT INTO trace VALUES(2097154,'{"at_ms":1796555709545,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run","worker":"vm:10264","token":2}');
INSERT INTO trace VALUES(3145728,'{"at_ms":1796555709546,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(3145729,'{"at_ms":1796555709547,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(3145730,'{"at_ms":1796555709547,"attempt":1,"message":"carrier refused the parcel","outcome":"failure","step":"ship","type":"run","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(3145731,'{"at_ms":1796555709547,"attempt":1,"message":"","outcome":"success","step":"ship","type":"compensate","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(3145732,'{"at_ms":1796555709548,"attempt":1,"message":"","outcome":"success","step":"charge","type":"undo","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(3145733,'{"at_ms":1796555709548,"attempt":1,"message":"warehouse offline: reservation kept","outcome":"failure","step":"reserve","type":"undo","worker":"vm:10264","token":3}');
INSERT INTO trace VALUES(4194304,'{"at_ms":1796555709550,"attempt":1,"message":"","outcome":"success","step":"screen","type":"run","worker":"vm:10264","token":4}');
INSERT INTO trace VALUES(4194305,'{"at_ms":1796555709551,"attempt":1,"message":"","outcome":"halt","step":"review","type":"run","worker":"vm:10264","token":4}');
INSERT INTO trace VALUES(5242880,'{"at_ms":1796555709552,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:10264","token":5}');
INSERT INTO trace VALUES(5242881,'{"at_ms":1796555709552,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run","worker":"vm:10264","token":5}');
INSERT INTO trace VALUES(5242882,'{"at_ms":1796555709553,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"run","worker":"vm:10264","token":5}');
INSERT INTO trace VALUES(5242883,'{"at_ms":1796555709553,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run","worker":"vm:10264","token":5}');
INSERT INTO trace VALUES(5242884,'{"at_ms":1796555709553,"attempt":1,"message":"","outcome":"success","step":"notify","type":"run","worker":"vm:10264","token":5}');
INSERT INTO trace VALUES(7340032,'{"at_ms":1796555709554,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340033,'{"at_ms":1796555709555,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340034,'{"at_ms":1796555709555,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship/label","type":"run","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340035,'{"at_ms":1796555709555,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"compensate","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340036,'{"at_ms":1796555709556,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"undo","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340037,'{"at_ms":1796555709556,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship","type":"run","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(7340038,'{"at_ms":1796555709557,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"undo","worker":"vm:10264","token":6}');
INSERT INTO trace VALUES(9437184,'{"at_ms":1796555709559,"attempt":1,"message":"","outcome":"success","step":"open","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(9437185,'{"at_ms":1796555709559,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(9437186,'{"at_ms":1796555709560,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(9437187,'{"at_ms":1796555709561,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(9437188,'{"at_ms":1796555709561,"attempt":1,"message":"","outcome":"success","step":"items","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(9437189,'{"at_ms":1796555709561,"attempt":1,"message":"","outcome":"success","step":"close","type":"run","worker":"vm:10264","token":7}');
INSERT INTO trace VALUES(13631488,'{"at_ms":1796555709562,"attempt":1,"message":"","outcome":"success","step":"open","type":"run","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631489,'{"at_ms":1796555709563,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631490,'{"at_ms":1796555709564,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631491,'{"at_ms":1796555709564,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items[2]/charge","type":"run","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631492,'{"at_ms":1796555709565,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"compensate","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631493,'{"at_ms":1796555709565,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"undo","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631494,'{"at_ms":1796555709565,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"undo","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631495,'{"at_ms":1796555709566,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items","type":"run","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(13631496,'{"at_ms":1796555709566,"attempt":1,"message":"","outcome":"success","step":"open","type":"undo","worker":"vm:10264","token":8}');
INSERT INTO trace VALUES(17825792,'{"at_ms":1796555709568,"attempt":1,"message":"","outcome":"success","step":"check","type":"run","worker":"vm:10264","token":9}');
INSERT INTO trace VALUES(17825793,'{"at_ms":1796555709568,"attempt":1,"message":"","outcome":"skipped","step":"wrap","type":"run","worker":"vm:10264","token":9}');
INSERT INTO trace VALUES(17825794,'{"at_ms":1796555709569,"attempt":1,"message":"","outcome":"success","step":"confirm","type":"run","worker":"vm:10264","token":9}');
INSERT INTO trace VALUES(18874368,'{"at_ms":1796555709574,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run","worker":"vm:10264","token":11}');
INSERT INTO trace VALUES(18874369,'{"at_ms":1796555709575,"attempt":1,"message":"partner unavailable","outcome":"failure","step":"call_partner","type":"run","worker":"vm:10264","token":11}');
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('jobs',3);
CREATE INDEX jobs_due ON jobs(queue, run_at, id);
CREATE INDEX jobs_run_id ON jobs(run_id);
CREATE INDEX hold_holders_holder ON hold_holders(holder);
CREATE INDEX runs_root_id ON runs(root_id);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX runs_roots_status ON runs(parent_id, status) WHERE parent_id = '';
COMMIT;
