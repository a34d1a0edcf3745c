PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
INSERT INTO meta VALUES('schema_version',1);
CREATE TABLE runs (
      id             TEXT PRIMARY KEY,
      root_id        TEXT NOT NULL,
      parent_id      TEXT NOT NULL DEFAULT '',
      reactor        TEXT NOT NULL,
      status         TEXT NOT NULL,
      fingerprint    TEXT NOT NULL DEFAULT '',
      schema_version INTEGER NOT NULL,
      body           TEXT NOT NULL,
      updated_at     INTEGER NOT NULL,
      expires_at     INTEGER NOT NULL
    );
INSERT INTO runs VALUES('corpus-crash-interrupted','corpus-crash-interrupted','','CorpusCrash','running','e3d84ae282f2a8b2',1,'{"created_at_ms":1796155461396,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_count":3,"value":null}',1796155461401,2426875461401);
INSERT INTO runs VALUES('corpus-order-completed','corpus-order-completed','','CorpusOrder','completed','26c9a10376775db5',1,'{"created_at_ms":1796155461442,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_count":3,"value":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"}}',1796155461519,2426875461519);
INSERT INTO runs VALUES('corpus-order-failed','corpus-order-failed','','CorpusOrder','failed','26c9a10376775db5',1,'{"created_at_ms":1796155461520,"error":{"attempts":1,"details":{"carrier":"ÜberFracht","code":503},"exception_type":"","inputs":{"amount":9007199254740993,"card":"[REDACTED]","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"},"kind":"step_failed","message":"carrier refused the parcel","reactor":"CorpusOrder","retryable":false,"rollback_failures":[{"kind":"undo","message":"warehouse offline: reservation kept","reason":"returned_failure","step":"reserve"}],"step":"ship","validation_errors":[]},"failed_step":2,"next_completion_seq":3,"path":"","step_count":3,"value":null}',1796155461572,2426875461572);
INSERT INTO runs VALUES('corpus-order-invalid','corpus-order-invalid','','CorpusOrder','failed','26c9a10376775db5',1,'{"created_at_ms":1796155461574,"error":{"attempts":0,"details":null,"exception_type":"","inputs":{"amount":-5,"card":"[REDACTED]","customer":"nobody","fail_ship":false,"note":"naïve – ✓","order_id":0,"remark":""},"kind":"input_invalid","message":"invalid inputs: order_id: must be at least 1; customer: must be an object; amount: must be at least 1; card: must match pattern [0-9]{4}-[0-9]{4}","reactor":"CorpusOrder","retryable":false,"rollback_failures":[],"step":"","validation_errors":[{"field":"order_id","message":"must be at least 1"},{"field":"customer","message":"must be an object"},{"field":"amount","message":"must be at least 1"},{"field":"card","message":"must match pattern [0-9]{4}-[0-9]{4}"}]},"failed_step":null,"next_completion_seq":1,"path":"","step_count":3,"value":null}',1796155461591,2426875461591);
INSERT INTO runs VALUES('corpus-review-halted','corpus-review-halted','','CorpusReview','halted','63cdab47c1e96488',1,'{"created_at_ms":1796155461604,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_count":3,"value":{"flags":["velocity","geo"],"reason":"manual review","score":87}}',1796155461631,2426875461631);
INSERT INTO runs VALUES('corpus-shipment-completed','corpus-shipment-completed','','CorpusShipment','completed','8af30155437a610c',1,'{"created_at_ms":1796155461635,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_count":3,"value":{"notify":{"sent":true,"tracking":"TRK-P-2001"},"prepare":{"prepared":true},"ship":{"tracking":"TRK-P-2001"}}}',1796155461705,2426875461705);
INSERT INTO runs VALUES('cf1db190-fc06-4403-9d06-b3513eb35a67','corpus-shipment-completed','corpus-shipment-completed','CorpusShipping','completed','0c382f2884881fac',1,'{"created_at_ms":1796155461691,"error":null,"failed_step":null,"next_completion_seq":3,"path":"ship","step_count":2,"value":{"tracking":"TRK-P-2001"}}',1796155461691,2426875461704);
INSERT INTO runs VALUES('corpus-shipment-child-failed','corpus-shipment-child-failed','','CorpusShipment','failed','8af30155437a610c',1,'{"created_at_ms":1796155461707,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","step_count":3,"value":null}',1796155461718,2426875461718);
INSERT INTO runs VALUES('8f6b9ccf-1ec4-4e7d-b704-fcaab111c2b4','corpus-shipment-child-failed','corpus-shipment-child-failed','CorpusShipping','failed','0c382f2884881fac',1,'{"created_at_ms":1796155461713,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"ship","step_count":2,"value":null}',1796155461713,2426875461716);
INSERT INTO runs VALUES('corpus-batch-completed','corpus-batch-completed','','CorpusBatch','completed','1758aec9754397fc',1,'{"created_at_ms":1796155461721,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_count":3,"value":[10,20,30]}',1796155461732,2426875461732);
INSERT INTO runs VALUES('f5a3b3ea-c84e-494d-b4d7-e05c8a789a1b','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',1,'{"created_at_ms":1796155461725,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","step_count":1,"value":10}',1796155461725,2426875461725);
INSERT INTO runs VALUES('bedc3b25-b963-4c16-ac70-d2ea8a964f8c','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',1,'{"created_at_ms":1796155461726,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","step_count":1,"value":20}',1796155461726,2426875461726);
INSERT INTO runs VALUES('7e1db1b2-cbea-4c7a-b8a8-1097be0e47ff','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',1,'{"created_at_ms":1796155461727,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[2]","step_count":1,"value":30}',1796155461727,2426875461728);
INSERT INTO runs VALUES('corpus-batch-atomic-failed','corpus-batch-atomic-failed','','CorpusBatch','failed','1758aec9754397fc',1,'{"created_at_ms":1796155461733,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"lines":[1,2,3,4]},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","step_count":3,"value":null}',1796155461751,2426875461751);
INSERT INTO runs VALUES('da4d1b0c-4e62-4427-9a65-18b0d4badbaa','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',1,'{"created_at_ms":1796155461736,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","step_count":1,"value":10}',1796155461736,2426875461748);
INSERT INTO runs VALUES('818a5d09-9ef3-4611-a71d-109fba860175','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',1,'{"created_at_ms":1796155461737,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","step_count":1,"value":20}',1796155461737,2426875461748);
INSERT INTO runs VALUES('a038424e-38d9-4da6-9068-e21d7f60be03','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','failed','634a73515335e685',1,'{"created_at_ms":1796155461740,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"item":3},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":0,"next_completion_seq":1,"path":"items[2]","step_count":1,"value":null}',1796155461740,2426875461742);
INSERT INTO runs VALUES('corpus-gift-skipped','corpus-gift-skipped','','CorpusGift','completed','40a6b67bbfab7c3f',1,'{"created_at_ms":1796155461752,"error":null,"failed_step":null,"next_completion_seq":3,"path":"","step_count":3,"value":{"check":"checked","confirm":{"wrap":{"reason":"not a gift"}},"wrap":{"reason":"not a gift"}}}',1796155461755,2426875461755);
INSERT INTO runs VALUES('9742e688-3d99-4220-8014-1395fbae936a','9742e688-3d99-4220-8014-1395fbae936a','','CorpusRetry','running','e91e33479d9ae329',1,'{"created_at_ms":1796155461756,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_count":2,"value":null}',1796155461816,2426875461816);
INSERT INTO runs VALUES('b41b569f-d7c5-4874-bce7-b9e2c257c496','b41b569f-d7c5-4874-bce7-b9e2c257c496','','CorpusOrder','enqueued','26c9a10376775db5',1,'{"created_at_ms":1796155461871,"error":null,"failed_step":null,"next_completion_seq":1,"path":"","step_count":3,"value":null}',1796155461871,2426875461871);
CREATE TABLE run_inputs (
      run_id TEXT PRIMARY KEY,
      inputs TEXT NOT NULL
    );
INSERT INTO run_inputs VALUES('corpus-crash-interrupted','{"batch":"b-7"}');
INSERT INTO run_inputs VALUES('corpus-order-completed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1001,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-order-failed','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
INSERT INTO run_inputs VALUES('corpus-order-invalid','{"amount":-5,"card":"not-a-card","customer":"nobody","fail_ship":false,"note":"naïve – ✓","order_id":0,"remark":""}');
INSERT INTO run_inputs VALUES('corpus-review-halted','{"applicant":"Łukasz"}');
INSERT INTO run_inputs VALUES('corpus-shipment-completed','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('cf1db190-fc06-4403-9d06-b3513eb35a67','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('corpus-shipment-child-failed','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('8f6b9ccf-1ec4-4e7d-b704-fcaab111c2b4','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('corpus-batch-completed','{"fail_item":-1,"lines":[1,2,3]}');
INSERT INTO run_inputs VALUES('f5a3b3ea-c84e-494d-b4d7-e05c8a789a1b','{"fail_item":-1,"item":1}');
INSERT INTO run_inputs VALUES('bedc3b25-b963-4c16-ac70-d2ea8a964f8c','{"fail_item":-1,"item":2}');
INSERT INTO run_inputs VALUES('7e1db1b2-cbea-4c7a-b8a8-1097be0e47ff','{"fail_item":-1,"item":3}');
INSERT INTO run_inputs VALUES('corpus-batch-atomic-failed','{"fail_item":3,"lines":[1,2,3,4]}');
INSERT INTO run_inputs VALUES('da4d1b0c-4e62-4427-9a65-18b0d4badbaa','{"fail_item":3,"item":1}');
INSERT INTO run_inputs VALUES('818a5d09-9ef3-4611-a71d-109fba860175','{"fail_item":3,"item":2}');
INSERT INTO run_inputs VALUES('a038424e-38d9-4da6-9068-e21d7f60be03','{"fail_item":3,"item":3}');
INSERT INTO run_inputs VALUES('corpus-gift-skipped','{"gift":false}');
INSERT INTO run_inputs VALUES('9742e688-3d99-4220-8014-1395fbae936a','{"partner":"Ωmega Freight"}');
INSERT INTO run_inputs VALUES('b41b569f-d7c5-4874-bce7-b9e2c257c496','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1002,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
CREATE TABLE steps (
      run_id TEXT NOT NULL,
      idx    INTEGER NOT NULL,
      body   TEXT NOT NULL,
      PRIMARY KEY (run_id, idx)
    ) WITHOUT ROWID;
INSERT INTO steps VALUES('7e1db1b2-cbea-4c7a-b8a8-1097be0e47ff',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461728,"name":"charge","result":30,"retry_at_ms":0,"started_at_ms":1796155461728,"status":"completed"}');
INSERT INTO steps VALUES('818a5d09-9ef3-4611-a71d-109fba860175',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461740,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796155461740,"status":"undone"}');
INSERT INTO steps VALUES('8f6b9ccf-1ec4-4e7d-b704-fcaab111c2b4',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461714,"name":"pack","result":{"parcel":"P-2002"},"retry_at_ms":0,"started_at_ms":1796155461714,"status":"undone"}');
INSERT INTO steps VALUES('8f6b9ccf-1ec4-4e7d-b704-fcaab111c2b4',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796155461714,"name":"label","result":null,"retry_at_ms":0,"started_at_ms":1796155461714,"status":"compensated"}');
INSERT INTO steps VALUES('9742e688-3d99-4220-8014-1395fbae936a',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461815,"name":"prepare","result":"prepared","retry_at_ms":0,"started_at_ms":1796155461815,"status":"completed"}');
INSERT INTO steps VALUES('9742e688-3d99-4220-8014-1395fbae936a',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"partner unavailable","finished_at_ms":1796155461816,"name":"call_partner","result":null,"retry_at_ms":2111515461816,"started_at_ms":1796155461816,"status":"retry_scheduled"}');
INSERT INTO steps VALUES('a038424e-38d9-4da6-9068-e21d7f60be03',0,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796155461741,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":1796155461741,"status":"compensated"}');
INSERT INTO steps VALUES('b41b569f-d7c5-4874-bce7-b9e2c257c496',0,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"reserve","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('b41b569f-d7c5-4874-bce7-b9e2c257c496',1,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('b41b569f-d7c5-4874-bce7-b9e2c257c496',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('bedc3b25-b963-4c16-ac70-d2ea8a964f8c',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461726,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796155461726,"status":"completed"}');
INSERT INTO steps VALUES('cf1db190-fc06-4403-9d06-b3513eb35a67',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461699,"name":"pack","result":{"parcel":"P-2001"},"retry_at_ms":0,"started_at_ms":1796155461699,"status":"completed"}');
INSERT INTO steps VALUES('cf1db190-fc06-4403-9d06-b3513eb35a67',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461704,"name":"label","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796155461704,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-atomic-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461735,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796155461735,"status":"undone"}');
INSERT INTO steps VALUES('corpus-batch-atomic-failed',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796155461749,"name":"items","result":null,"retry_at_ms":0,"started_at_ms":1796155461736,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-batch-atomic-failed',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"close","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-batch-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461723,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796155461723,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461732,"name":"items","result":[10,20,30],"retry_at_ms":0,"started_at_ms":1796155461725,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796155461732,"name":"close","result":"closed","retry_at_ms":0,"started_at_ms":1796155461732,"status":"completed"}');
INSERT INTO steps VALUES('corpus-crash-interrupted',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461401,"name":"first","result":1,"retry_at_ms":0,"started_at_ms":1796155461401,"status":"completed"}');
INSERT INTO steps VALUES('corpus-crash-interrupted',1,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"second","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-crash-interrupted',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"third","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-gift-skipped',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461753,"name":"check","result":"checked","retry_at_ms":0,"started_at_ms":1796155461753,"status":"completed"}');
INSERT INTO steps VALUES('corpus-gift-skipped',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796155461753,"name":"wrap","result":{"reason":"not a gift"},"retry_at_ms":0,"started_at_ms":1796155461753,"status":"skipped"}');
INSERT INTO steps VALUES('corpus-gift-skipped',2,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461755,"name":"confirm","result":{"wrap":{"reason":"not a gift"}},"retry_at_ms":0,"started_at_ms":1796155461755,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461511,"name":"reserve","result":{"city":"Köln","reservation":"R-1001"},"retry_at_ms":0,"started_at_ms":1796155461511,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461515,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796155461515,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796155461519,"name":"ship","result":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"retry_at_ms":0,"started_at_ms":1796155461519,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461543,"name":"reserve","result":{"city":"Köln","reservation":"R-1003"},"retry_at_ms":0,"started_at_ms":1796155461543,"status":"undone"}');
INSERT INTO steps VALUES('corpus-order-failed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461544,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796155461544,"status":"undone"}');
INSERT INTO steps VALUES('corpus-order-failed',2,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"carrier refused the parcel","finished_at_ms":1796155461558,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796155461558,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-order-invalid',0,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"reserve","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-order-invalid',1,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-order-invalid',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-review-halted',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461614,"name":"screen","result":{"score":87},"retry_at_ms":0,"started_at_ms":1796155461614,"status":"completed"}');
INSERT INTO steps VALUES('corpus-review-halted',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796155461631,"name":"review","result":{"flags":["velocity","geo"],"reason":"manual review","score":87},"retry_at_ms":0,"started_at_ms":1796155461631,"status":"halted"}');
INSERT INTO steps VALUES('corpus-review-halted',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"settle","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-shipment-child-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461712,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796155461712,"status":"undone"}');
INSERT INTO steps VALUES('corpus-shipment-child-failed',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796155461717,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796155461713,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-shipment-child-failed',2,'{"attempts":0,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":0,"name":"notify","result":null,"retry_at_ms":0,"started_at_ms":0,"status":"pending"}');
INSERT INTO steps VALUES('corpus-shipment-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461683,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796155461683,"status":"completed"}');
INSERT INTO steps VALUES('corpus-shipment-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796155461704,"name":"ship","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796155461691,"status":"completed"}');
INSERT INTO steps VALUES('corpus-shipment-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796155461705,"name":"notify","result":{"sent":true,"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796155461705,"status":"completed"}');
INSERT INTO steps VALUES('da4d1b0c-4e62-4427-9a65-18b0d4badbaa',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461737,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796155461737,"status":"undone"}');
INSERT INTO steps VALUES('f5a3b3ea-c84e-494d-b4d7-e05c8a789a1b',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796155461725,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796155461725,"status":"completed"}');
CREATE TABLE trace (
      root_id TEXT NOT NULL,
      seq     INTEGER NOT NULL,
      body    TEXT NOT NULL,
      PRIMARY KEY (root_id, seq)
    ) WITHOUT ROWID;
INSERT INTO trace VALUES('9742e688-3d99-4220-8014-1395fbae936a',0,'{"at_ms":1796155461815,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('9742e688-3d99-4220-8014-1395fbae936a',1,'{"at_ms":1796155461816,"attempt":1,"message":"partner unavailable","outcome":"failure","step":"call_partner","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',0,'{"at_ms":1796155461735,"attempt":1,"message":"","outcome":"success","step":"open","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',1,'{"at_ms":1796155461737,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',2,'{"at_ms":1796155461740,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',3,'{"at_ms":1796155461741,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items[2]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',4,'{"at_ms":1796155461742,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"compensate"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',5,'{"at_ms":1796155461748,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',6,'{"at_ms":1796155461748,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',7,'{"at_ms":1796155461749,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',8,'{"at_ms":1796155461750,"attempt":1,"message":"","outcome":"success","step":"open","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-completed',0,'{"at_ms":1796155461723,"attempt":1,"message":"","outcome":"success","step":"open","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',1,'{"at_ms":1796155461725,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',2,'{"at_ms":1796155461726,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',3,'{"at_ms":1796155461728,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',4,'{"at_ms":1796155461732,"attempt":1,"message":"","outcome":"success","step":"items","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',5,'{"at_ms":1796155461732,"attempt":1,"message":"","outcome":"success","step":"close","type":"run"}');
INSERT INTO trace VALUES('corpus-crash-interrupted',0,'{"at_ms":1796155461401,"attempt":1,"message":"","outcome":"success","step":"first","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',0,'{"at_ms":1796155461753,"attempt":1,"message":"","outcome":"success","step":"check","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',1,'{"at_ms":1796155461753,"attempt":1,"message":"","outcome":"skipped","step":"wrap","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',2,'{"at_ms":1796155461755,"attempt":1,"message":"","outcome":"success","step":"confirm","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',0,'{"at_ms":1796155461511,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',1,'{"at_ms":1796155461515,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',2,'{"at_ms":1796155461519,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',0,'{"at_ms":1796155461543,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',1,'{"at_ms":1796155461544,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',2,'{"at_ms":1796155461558,"attempt":1,"message":"carrier refused the parcel","outcome":"failure","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',3,'{"at_ms":1796155461564,"attempt":1,"message":"","outcome":"success","step":"ship","type":"compensate"}');
INSERT INTO trace VALUES('corpus-order-failed',4,'{"at_ms":1796155461565,"attempt":1,"message":"","outcome":"success","step":"charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-order-failed',5,'{"at_ms":1796155461570,"attempt":1,"message":"warehouse offline: reservation kept","outcome":"failure","step":"reserve","type":"undo"}');
INSERT INTO trace VALUES('corpus-review-halted',0,'{"at_ms":1796155461614,"attempt":1,"message":"","outcome":"success","step":"screen","type":"run"}');
INSERT INTO trace VALUES('corpus-review-halted',1,'{"at_ms":1796155461631,"attempt":1,"message":"","outcome":"halt","step":"review","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',0,'{"at_ms":1796155461712,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',1,'{"at_ms":1796155461714,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',2,'{"at_ms":1796155461714,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship/label","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',3,'{"at_ms":1796155461715,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"compensate"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',4,'{"at_ms":1796155461716,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"undo"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',5,'{"at_ms":1796155461717,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',6,'{"at_ms":1796155461718,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"undo"}');
INSERT INTO trace VALUES('corpus-shipment-completed',0,'{"at_ms":1796155461683,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',1,'{"at_ms":1796155461699,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',2,'{"at_ms":1796155461704,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',3,'{"at_ms":1796155461704,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',4,'{"at_ms":1796155461705,"attempt":1,"message":"","outcome":"success","step":"notify","type":"run"}');
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
INSERT INTO jobs VALUES(2,'CorpusRetry','resume','9742e688-3d99-4220-8014-1395fbae936a','CorpusRetry',2111515461816,0,0,NULL,0);
INSERT INTO jobs VALUES(3,'CorpusOrder','start','b41b569f-d7c5-4874-bce7-b9e2c257c496','CorpusOrder',1796155461871,0,0,NULL,0);
CREATE TABLE leases (
      key        TEXT PRIMARY KEY,
      owner      TEXT,
      token      INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
INSERT INTO leases VALUES('run:corpus-crash-interrupted','797a94df-f36a-4cdc-89fb-be97386d996e',1,1796155462396);
INSERT INTO leases VALUES('run:corpus-order-completed',NULL,2,1796155461519);
INSERT INTO leases VALUES('run:corpus-order-failed',NULL,3,1796155461572);
INSERT INTO leases VALUES('run:corpus-order-invalid',NULL,4,1796155461591);
INSERT INTO leases VALUES('run:corpus-review-halted',NULL,5,1796155461631);
INSERT INTO leases VALUES('run:corpus-shipment-completed',NULL,6,1796155461705);
INSERT INTO leases VALUES('run:corpus-shipment-child-failed',NULL,7,1796155461718);
INSERT INTO leases VALUES('run:corpus-batch-completed',NULL,8,1796155461732);
INSERT INTO leases VALUES('run:corpus-batch-atomic-failed',NULL,9,1796155461751);
INSERT INTO leases VALUES('run:corpus-gift-skipped',NULL,10,1796155461755);
INSERT INTO leases VALUES('run:9742e688-3d99-4220-8014-1395fbae936a',NULL,11,1796155461831);
CREATE TABLE counters (
      name  TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
INSERT INTO counters VALUES('fencing_token',11);
DELETE FROM sqlite_sequence;
INSERT INTO sqlite_sequence VALUES('jobs',3);
CREATE INDEX runs_root_id ON runs(root_id);
CREATE INDEX runs_status ON runs(status);
CREATE INDEX jobs_due ON jobs(queue, run_at, id);
CREATE INDEX jobs_run_id ON jobs(run_id);
COMMIT;
