PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE meta (key TEXT PRIMARY KEY, value NOT NULL);
INSERT INTO meta VALUES('schema_version',2);
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
INSERT INTO runs VALUES('corpus-crash-interrupted','corpus-crash-interrupted','','CorpusCrash','running','e3d84ae282f2a8b2',2,'{"created_at_ms":1796157037580,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_names":["first","second","third"],"value":null}',1796157037584,2426877037584);
INSERT INTO runs VALUES('corpus-order-completed','corpus-order-completed','','CorpusOrder','completed','26c9a10376775db5',2,'{"created_at_ms":1796157037588,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_names":["reserve","charge","ship"],"value":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"}}',1796157037593,2426877037593);
INSERT INTO runs VALUES('corpus-order-failed','corpus-order-failed','','CorpusOrder','failed','26c9a10376775db5',2,'{"created_at_ms":1796157037594,"error":{"attempts":1,"details":{"carrier":"ÜberFracht","code":503},"exception_type":"","inputs":{"amount":9007199254740993,"card":"[REDACTED]","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":true,"note":"naïve – ✓","order_id":1003,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"},"kind":"step_failed","message":"carrier refused the parcel","reactor":"CorpusOrder","retryable":false,"rollback_failures":[{"kind":"undo","message":"warehouse offline: reservation kept","reason":"returned_failure","step":"reserve"}],"step":"ship","validation_errors":[]},"failed_step":2,"next_completion_seq":3,"path":"","step_names":["reserve","charge","ship"],"value":null}',1796157037603,2426877037603);
INSERT INTO runs VALUES('corpus-order-invalid','corpus-order-invalid','','CorpusOrder','failed','26c9a10376775db5',2,'{"created_at_ms":1796157037604,"error":{"attempts":0,"details":null,"exception_type":"","inputs":{"amount":-5,"card":"[REDACTED]","customer":"nobody","fail_ship":false,"note":"naïve – ✓","order_id":0,"remark":""},"kind":"input_invalid","message":"invalid inputs: order_id: must be at least 1; customer: must be an object; amount: must be at least 1; card: must match pattern [0-9]{4}-[0-9]{4}","reactor":"CorpusOrder","retryable":false,"rollback_failures":[],"step":"","validation_errors":[{"field":"order_id","message":"must be at least 1"},{"field":"customer","message":"must be an object"},{"field":"amount","message":"must be at least 1"},{"field":"card","message":"must match pattern [0-9]{4}-[0-9]{4}"}]},"failed_step":null,"next_completion_seq":1,"path":"","step_names":["reserve","charge","ship"],"value":null}',1796157037605,2426877037605);
INSERT INTO runs VALUES('corpus-review-halted','corpus-review-halted','','CorpusReview','halted','63cdab47c1e96488',2,'{"created_at_ms":1796157037606,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_names":["screen","review","settle"],"value":{"flags":["velocity","geo"],"reason":"manual review","score":87}}',1796157037609,2426877037609);
INSERT INTO runs VALUES('corpus-shipment-completed','corpus-shipment-completed','','CorpusShipment','completed','8af30155437a610c',2,'{"created_at_ms":1796157037610,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_names":["prepare","ship","notify"],"value":{"notify":{"sent":true,"tracking":"TRK-P-2001"},"prepare":{"prepared":true},"ship":{"tracking":"TRK-P-2001"}}}',1796157037617,2426877037617);
INSERT INTO runs VALUES('2b8c9c75-ed0a-4b94-be8f-da548cfbfaf3','corpus-shipment-completed','corpus-shipment-completed','CorpusShipping','completed','0c382f2884881fac',2,'{"created_at_ms":1796157037614,"error":null,"failed_step":null,"next_completion_seq":3,"path":"ship","step_names":["pack","label"],"value":{"tracking":"TRK-P-2001"}}',1796157037614,2426877037615);
INSERT INTO runs VALUES('corpus-shipment-child-failed','corpus-shipment-child-failed','','CorpusShipment','failed','8af30155437a610c',2,'{"created_at_ms":1796157037618,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","step_names":["prepare","ship","notify"],"value":null}',1796157037625,2426877037625);
INSERT INTO runs VALUES('18d89219-d29d-45e0-855a-ceb46edda6aa','corpus-shipment-child-failed','corpus-shipment-child-failed','CorpusShipping','failed','0c382f2884881fac',2,'{"created_at_ms":1796157037620,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_label":true,"order_id":2002},"kind":"step_failed","message":"label printer jammed","reactor":"CorpusShipping","retryable":false,"rollback_failures":[],"step":"ship/label","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"ship","step_names":["pack","label"],"value":null}',1796157037620,2426877037623);
INSERT INTO runs VALUES('corpus-batch-completed','corpus-batch-completed','','CorpusBatch','completed','1758aec9754397fc',2,'{"created_at_ms":1796157037626,"error":null,"failed_step":null,"next_completion_seq":4,"path":"","step_names":["open","items","close"],"value":[10,20,30]}',1796157037632,2426877037632);
INSERT INTO runs VALUES('3e93ce6e-000e-402e-aaf7-07944a559fec','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',2,'{"created_at_ms":1796157037628,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","step_names":["charge"],"value":10}',1796157037628,2426877037629);
INSERT INTO runs VALUES('c153866a-30d2-4570-98aa-aed5d04d6cef','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',2,'{"created_at_ms":1796157037629,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","step_names":["charge"],"value":20}',1796157037629,2426877037630);
INSERT INTO runs VALUES('d4f1ba0e-6dcf-44e3-ac5f-b7e3092f8967','corpus-batch-completed','corpus-batch-completed','CorpusLine','completed','634a73515335e685',2,'{"created_at_ms":1796157037630,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[2]","step_names":["charge"],"value":30}',1796157037630,2426877037631);
INSERT INTO runs VALUES('corpus-batch-atomic-failed','corpus-batch-atomic-failed','','CorpusBatch','failed','1758aec9754397fc',2,'{"created_at_ms":1796157037633,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"lines":[1,2,3,4]},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":1,"next_completion_seq":2,"path":"","step_names":["open","items","close"],"value":null}',1796157037641,2426877037641);
INSERT INTO runs VALUES('69bee656-f5ee-4246-9683-6533626fa16c','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',2,'{"created_at_ms":1796157037634,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[0]","step_names":["charge"],"value":10}',1796157037634,2426877037639);
INSERT INTO runs VALUES('df57cd3d-e39c-4d21-8ac9-2f941288ea9c','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','completed','634a73515335e685',2,'{"created_at_ms":1796157037635,"error":null,"failed_step":null,"next_completion_seq":2,"path":"items[1]","step_names":["charge"],"value":20}',1796157037635,2426877037638);
INSERT INTO runs VALUES('7724b437-603a-4b2d-a66b-63353325248e','corpus-batch-atomic-failed','corpus-batch-atomic-failed','CorpusLine','failed','634a73515335e685',2,'{"created_at_ms":1796157037636,"error":{"attempts":1,"details":null,"exception_type":"","inputs":{"fail_item":3,"item":3},"kind":"step_failed","message":"item 3 out of stock","reactor":"CorpusLine","retryable":false,"rollback_failures":[],"step":"items[2]/charge","validation_errors":[]},"failed_step":0,"next_completion_seq":1,"path":"items[2]","step_names":["charge"],"value":null}',1796157037636,2426877037638);
INSERT INTO runs VALUES('corpus-gift-skipped','corpus-gift-skipped','','CorpusGift','completed','40a6b67bbfab7c3f',2,'{"created_at_ms":1796157037642,"error":null,"failed_step":null,"next_completion_seq":3,"path":"","step_names":["check","wrap","confirm"],"value":{"check":"checked","confirm":{"wrap":{"reason":"not a gift"}},"wrap":{"reason":"not a gift"}}}',1796157037644,2426877037644);
INSERT INTO runs VALUES('43699426-a75b-4750-84d1-03e3790228c1','43699426-a75b-4750-84d1-03e3790228c1','','CorpusRetry','running','e91e33479d9ae329',2,'{"created_at_ms":1796157037644,"error":null,"failed_step":null,"next_completion_seq":2,"path":"","step_names":["prepare","call_partner"],"value":null}',1796157037651,2426877037651);
INSERT INTO runs VALUES('76b6c263-1b71-422e-89cf-453e560e8584','76b6c263-1b71-422e-89cf-453e560e8584','','CorpusOrder','enqueued','26c9a10376775db5',2,'{"created_at_ms":1796157037660,"error":null,"failed_step":null,"next_completion_seq":1,"path":"","step_names":["reserve","charge","ship"],"value":null}',1796157037660,2426877037660);
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
INSERT INTO run_inputs VALUES('2b8c9c75-ed0a-4b94-be8f-da548cfbfaf3','{"fail_label":false,"order_id":2001}');
INSERT INTO run_inputs VALUES('corpus-shipment-child-failed','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('18d89219-d29d-45e0-855a-ceb46edda6aa','{"fail_label":true,"order_id":2002}');
INSERT INTO run_inputs VALUES('corpus-batch-completed','{"fail_item":-1,"lines":[1,2,3]}');
INSERT INTO run_inputs VALUES('3e93ce6e-000e-402e-aaf7-07944a559fec','{"fail_item":-1,"item":1}');
INSERT INTO run_inputs VALUES('c153866a-30d2-4570-98aa-aed5d04d6cef','{"fail_item":-1,"item":2}');
INSERT INTO run_inputs VALUES('d4f1ba0e-6dcf-44e3-ac5f-b7e3092f8967','{"fail_item":-1,"item":3}');
INSERT INTO run_inputs VALUES('corpus-batch-atomic-failed','{"fail_item":3,"lines":[1,2,3,4]}');
INSERT INTO run_inputs VALUES('69bee656-f5ee-4246-9683-6533626fa16c','{"fail_item":3,"item":1}');
INSERT INTO run_inputs VALUES('df57cd3d-e39c-4d21-8ac9-2f941288ea9c','{"fail_item":3,"item":2}');
INSERT INTO run_inputs VALUES('7724b437-603a-4b2d-a66b-63353325248e','{"fail_item":3,"item":3}');
INSERT INTO run_inputs VALUES('corpus-gift-skipped','{"gift":false}');
INSERT INTO run_inputs VALUES('43699426-a75b-4750-84d1-03e3790228c1','{"partner":"Ωmega Freight"}');
INSERT INTO run_inputs VALUES('76b6c263-1b71-422e-89cf-453e560e8584','{"amount":9007199254740993,"card":"4242-4242","customer":{"address":{"city":"Köln","lines":["Hauptstraße 1","3. OG"],"zip":"50667"},"limits":{"daily":9007199254740993,"negative":-9007199254740993},"name":"Zoë Ångström","tags":["vip",7,null,true,2.5,-0.125]},"fail_ship":false,"note":"naïve – ✓","order_id":1002,"remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚"}');
CREATE TABLE steps (
      run_id TEXT NOT NULL,
      idx    INTEGER NOT NULL,
      body   TEXT NOT NULL,
      PRIMARY KEY (run_id, idx)
    ) WITHOUT ROWID;
INSERT INTO steps VALUES('18d89219-d29d-45e0-855a-ceb46edda6aa',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037621,"name":"pack","result":{"parcel":"P-2002"},"retry_at_ms":0,"started_at_ms":1796157037621,"status":"undone"}');
INSERT INTO steps VALUES('18d89219-d29d-45e0-855a-ceb46edda6aa',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796157037621,"name":"label","result":null,"retry_at_ms":0,"started_at_ms":1796157037621,"status":"compensated"}');
INSERT INTO steps VALUES('2b8c9c75-ed0a-4b94-be8f-da548cfbfaf3',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037614,"name":"pack","result":{"parcel":"P-2001"},"retry_at_ms":0,"started_at_ms":1796157037614,"status":"completed"}');
INSERT INTO steps VALUES('2b8c9c75-ed0a-4b94-be8f-da548cfbfaf3',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037615,"name":"label","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796157037615,"status":"completed"}');
INSERT INTO steps VALUES('3e93ce6e-000e-402e-aaf7-07944a559fec',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037629,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796157037629,"status":"completed"}');
INSERT INTO steps VALUES('43699426-a75b-4750-84d1-03e3790228c1',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037650,"name":"prepare","result":"prepared","retry_at_ms":0,"started_at_ms":1796157037650,"status":"completed"}');
INSERT INTO steps VALUES('43699426-a75b-4750-84d1-03e3790228c1',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"partner unavailable","finished_at_ms":1796157037651,"name":"call_partner","result":null,"retry_at_ms":2111517037651,"started_at_ms":1796157037651,"status":"retry_scheduled"}');
INSERT INTO steps VALUES('69bee656-f5ee-4246-9683-6533626fa16c',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037635,"name":"charge","result":10,"retry_at_ms":0,"started_at_ms":1796157037635,"status":"undone"}');
INSERT INTO steps VALUES('7724b437-603a-4b2d-a66b-63353325248e',0,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796157037637,"name":"charge","result":null,"retry_at_ms":0,"started_at_ms":1796157037637,"status":"compensated"}');
INSERT INTO steps VALUES('c153866a-30d2-4570-98aa-aed5d04d6cef',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037630,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796157037630,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-atomic-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037634,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796157037634,"status":"undone"}');
INSERT INTO steps VALUES('corpus-batch-atomic-failed',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"item 3 out of stock","finished_at_ms":1796157037640,"name":"items","result":null,"retry_at_ms":0,"started_at_ms":1796157037634,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-batch-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037627,"name":"open","result":"opened","retry_at_ms":0,"started_at_ms":1796157037627,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037631,"name":"items","result":[10,20,30],"retry_at_ms":0,"started_at_ms":1796157037628,"status":"completed"}');
INSERT INTO steps VALUES('corpus-batch-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796157037632,"name":"close","result":"closed","retry_at_ms":0,"started_at_ms":1796157037632,"status":"completed"}');
INSERT INTO steps VALUES('corpus-crash-interrupted',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037584,"name":"first","result":1,"retry_at_ms":0,"started_at_ms":1796157037584,"status":"completed"}');
INSERT INTO steps VALUES('corpus-gift-skipped',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037643,"name":"check","result":"checked","retry_at_ms":0,"started_at_ms":1796157037643,"status":"completed"}');
INSERT INTO steps VALUES('corpus-gift-skipped',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796157037643,"name":"wrap","result":{"reason":"not a gift"},"retry_at_ms":0,"started_at_ms":1796157037643,"status":"skipped"}');
INSERT INTO steps VALUES('corpus-gift-skipped',2,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037644,"name":"confirm","result":{"wrap":{"reason":"not a gift"}},"retry_at_ms":0,"started_at_ms":1796157037644,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037591,"name":"reserve","result":{"city":"Köln","reservation":"R-1001"},"retry_at_ms":0,"started_at_ms":1796157037591,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037592,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796157037592,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796157037593,"name":"ship","result":{"note":"naïve – ✓","remark":"tab\there \"quoted\" back\\slash\nnew line \u0001 🚚","tracking":"TRK-R-1001"},"retry_at_ms":0,"started_at_ms":1796157037593,"status":"completed"}');
INSERT INTO steps VALUES('corpus-order-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037597,"name":"reserve","result":{"city":"Köln","reservation":"R-1003"},"retry_at_ms":0,"started_at_ms":1796157037597,"status":"undone"}');
INSERT INTO steps VALUES('corpus-order-failed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037598,"name":"charge","result":{"charged":9007199254740993,"currency":"EUR","rate":0.1},"retry_at_ms":0,"started_at_ms":1796157037598,"status":"undone"}');
INSERT INTO steps VALUES('corpus-order-failed',2,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"carrier refused the parcel","finished_at_ms":1796157037599,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796157037599,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-review-halted',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037608,"name":"screen","result":{"score":87},"retry_at_ms":0,"started_at_ms":1796157037608,"status":"completed"}');
INSERT INTO steps VALUES('corpus-review-halted',1,'{"attempts":1,"body_started":false,"completion_seq":0,"error":"","finished_at_ms":1796157037609,"name":"review","result":{"flags":["velocity","geo"],"reason":"manual review","score":87},"retry_at_ms":0,"started_at_ms":1796157037609,"status":"halted"}');
INSERT INTO steps VALUES('corpus-shipment-child-failed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037619,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796157037619,"status":"undone"}');
INSERT INTO steps VALUES('corpus-shipment-child-failed',1,'{"attempts":1,"body_started":true,"completion_seq":0,"error":"label printer jammed","finished_at_ms":1796157037623,"name":"ship","result":null,"retry_at_ms":0,"started_at_ms":1796157037620,"status":"compensated"}');
INSERT INTO steps VALUES('corpus-shipment-completed',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037613,"name":"prepare","result":{"prepared":true},"retry_at_ms":0,"started_at_ms":1796157037613,"status":"completed"}');
INSERT INTO steps VALUES('corpus-shipment-completed',1,'{"attempts":1,"body_started":false,"completion_seq":2,"error":"","finished_at_ms":1796157037617,"name":"ship","result":{"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796157037614,"status":"completed"}');
INSERT INTO steps VALUES('corpus-shipment-completed',2,'{"attempts":1,"body_started":false,"completion_seq":3,"error":"","finished_at_ms":1796157037617,"name":"notify","result":{"sent":true,"tracking":"TRK-P-2001"},"retry_at_ms":0,"started_at_ms":1796157037617,"status":"completed"}');
INSERT INTO steps VALUES('d4f1ba0e-6dcf-44e3-ac5f-b7e3092f8967',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037631,"name":"charge","result":30,"retry_at_ms":0,"started_at_ms":1796157037631,"status":"completed"}');
INSERT INTO steps VALUES('df57cd3d-e39c-4d21-8ac9-2f941288ea9c',0,'{"attempts":1,"body_started":false,"completion_seq":1,"error":"","finished_at_ms":1796157037636,"name":"charge","result":20,"retry_at_ms":0,"started_at_ms":1796157037636,"status":"undone"}');
CREATE TABLE trace (
      root_id TEXT NOT NULL,
      seq     INTEGER NOT NULL,
      body    TEXT NOT NULL,
      PRIMARY KEY (root_id, seq)
    ) WITHOUT ROWID;
INSERT INTO trace VALUES('43699426-a75b-4750-84d1-03e3790228c1',0,'{"at_ms":1796157037650,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('43699426-a75b-4750-84d1-03e3790228c1',1,'{"at_ms":1796157037651,"attempt":1,"message":"partner unavailable","outcome":"failure","step":"call_partner","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',0,'{"at_ms":1796157037634,"attempt":1,"message":"","outcome":"success","step":"open","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',1,'{"at_ms":1796157037635,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',2,'{"at_ms":1796157037636,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',3,'{"at_ms":1796157037637,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items[2]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',4,'{"at_ms":1796157037637,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"compensate"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',5,'{"at_ms":1796157037638,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',6,'{"at_ms":1796157037639,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',7,'{"at_ms":1796157037640,"attempt":1,"message":"item 3 out of stock","outcome":"failure","step":"items","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-atomic-failed',8,'{"at_ms":1796157037641,"attempt":1,"message":"","outcome":"success","step":"open","type":"undo"}');
INSERT INTO trace VALUES('corpus-batch-completed',0,'{"at_ms":1796157037627,"attempt":1,"message":"","outcome":"success","step":"open","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',1,'{"at_ms":1796157037629,"attempt":1,"message":"","outcome":"success","step":"items[0]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',2,'{"at_ms":1796157037630,"attempt":1,"message":"","outcome":"success","step":"items[1]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',3,'{"at_ms":1796157037631,"attempt":1,"message":"","outcome":"success","step":"items[2]/charge","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',4,'{"at_ms":1796157037631,"attempt":1,"message":"","outcome":"success","step":"items","type":"run"}');
INSERT INTO trace VALUES('corpus-batch-completed',5,'{"at_ms":1796157037632,"attempt":1,"message":"","outcome":"success","step":"close","type":"run"}');
INSERT INTO trace VALUES('corpus-crash-interrupted',0,'{"at_ms":1796157037584,"attempt":1,"message":"","outcome":"success","step":"first","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',0,'{"at_ms":1796157037643,"attempt":1,"message":"","outcome":"success","step":"check","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',1,'{"at_ms":1796157037643,"attempt":1,"message":"","outcome":"skipped","step":"wrap","type":"run"}');
INSERT INTO trace VALUES('corpus-gift-skipped',2,'{"at_ms":1796157037644,"attempt":1,"message":"","outcome":"success","step":"confirm","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',0,'{"at_ms":1796157037591,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',1,'{"at_ms":1796157037592,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run"}');
INSERT INTO trace VALUES('corpus-order-completed',2,'{"at_ms":1796157037593,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',0,'{"at_ms":1796157037597,"attempt":1,"message":"","outcome":"success","step":"reserve","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',1,'{"at_ms":1796157037598,"attempt":1,"message":"","outcome":"success","step":"charge","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',2,'{"at_ms":1796157037599,"attempt":1,"message":"carrier refused the parcel","outcome":"failure","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-order-failed',3,'{"at_ms":1796157037600,"attempt":1,"message":"","outcome":"success","step":"ship","type":"compensate"}');
INSERT INTO trace VALUES('corpus-order-failed',4,'{"at_ms":1796157037601,"attempt":1,"message":"","outcome":"success","step":"charge","type":"undo"}');
INSERT INTO trace VALUES('corpus-order-failed',5,'{"at_ms":1796157037602,"attempt":1,"message":"warehouse offline: reservation kept","outcome":"failure","step":"reserve","type":"undo"}');
INSERT INTO trace VALUES('corpus-review-halted',0,'{"at_ms":1796157037608,"attempt":1,"message":"","outcome":"success","step":"screen","type":"run"}');
INSERT INTO trace VALUES('corpus-review-halted',1,'{"at_ms":1796157037609,"attempt":1,"message":"","outcome":"halt","step":"review","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',0,'{"at_ms":1796157037619,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',1,'{"at_ms":1796157037621,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',2,'{"at_ms":1796157037621,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship/label","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',3,'{"at_ms":1796157037622,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"compensate"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',4,'{"at_ms":1796157037622,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"undo"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',5,'{"at_ms":1796157037623,"attempt":1,"message":"label printer jammed","outcome":"failure","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-child-failed',6,'{"at_ms":1796157037625,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"undo"}');
INSERT INTO trace VALUES('corpus-shipment-completed',0,'{"at_ms":1796157037613,"attempt":1,"message":"","outcome":"success","step":"prepare","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',1,'{"at_ms":1796157037614,"attempt":1,"message":"","outcome":"success","step":"ship/pack","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',2,'{"at_ms":1796157037615,"attempt":1,"message":"","outcome":"success","step":"ship/label","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',3,'{"at_ms":1796157037617,"attempt":1,"message":"","outcome":"success","step":"ship","type":"run"}');
INSERT INTO trace VALUES('corpus-shipment-completed',4,'{"at_ms":1796157037617,"attempt":1,"message":"","outcome":"success","step":"notify","type":"run"}');
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
INSERT INTO jobs VALUES(2,'CorpusRetry','resume','43699426-a75b-4750-84d1-03e3790228c1','CorpusRetry',2111517037651,0,0,NULL,0);
INSERT INTO jobs VALUES(3,'CorpusOrder','start','76b6c263-1b71-422e-89cf-453e560e8584','CorpusOrder',1796157037660,0,0,NULL,0);
CREATE TABLE leases (
      key        TEXT PRIMARY KEY,
      owner      TEXT,
      token      INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );
INSERT INTO leases VALUES('run:corpus-crash-interrupted','a3671053-2cc0-43ae-bf48-879b83d2f4cf',1,1796157038580);
INSERT INTO leases VALUES('run:corpus-order-completed',NULL,2,1796157037593);
INSERT INTO leases VALUES('run:corpus-order-failed',NULL,3,1796157037603);
INSERT INTO leases VALUES('run:corpus-order-invalid',NULL,4,1796157037605);
INSERT INTO leases VALUES('run:corpus-review-halted',NULL,5,1796157037609);
INSERT INTO leases VALUES('run:corpus-shipment-completed',NULL,6,1796157037617);
INSERT INTO leases VALUES('run:corpus-shipment-child-failed',NULL,7,1796157037625);
INSERT INTO leases VALUES('run:corpus-batch-completed',NULL,8,1796157037632);
INSERT INTO leases VALUES('run:corpus-batch-atomic-failed',NULL,9,1796157037641);
INSERT INTO leases VALUES('run:corpus-gift-skipped',NULL,10,1796157037644);
INSERT INTO leases VALUES('run:43699426-a75b-4750-84d1-03e3790228c1',NULL,11,1796157037652);
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
