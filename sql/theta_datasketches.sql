-- theta_from_datasketches / theta_to_datasketches: DataSketches compact
-- theta sketches (serial versions 1 to 4) as thetas of hash identity 3. The
-- small vectors are the C++ and Java libraries' own bytes (their sketches of
-- the ints 0..n-1) and hand-built ones; every shipped file is checked by the
-- unit tests (test/unit/theta) and test/interop/datasketches.sh.
CREATE TEMP TABLE ds_theta(name text, bytes bytea);
INSERT INTO ds_theta VALUES
  ('cpp n0', '\x01030300001ecc93'),
  ('cpp n1', '\x01030300001acc93e56b61eec8804420'),
  ('cpp n10', '\x02030300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c'),
  ('cpp n10 compressed', '\x0104033e011acc930a16861af72df7e45429c550c15b0e52b006633bac22ab4a4865304281678b95103fe12d7d486efc9d0df3aa0896506069c411f6d9350881eb0bd01ccf6535ece5e906da09be81f5a7cbf28d8b4260'),
  ('cpp non-empty, no entries', '\x03030300001acc9300000000000000000000000014ae4701'),
  ('java n0 (seed hash 0)', '\x01030300001e0000'),
  ('java n1 (single-item flag)', '\x01030300003acc93e56b61eec8804420'),
  ('java v1 empty', '\x03010300001e00000000000000000000ffffffffffffff7f'),
  ('java v2 empty', '\x01020300001ecc93'),
  ('v3 estimation', '\x03030300001acc930300000000000000e803000000000000050000000000000009000000000000006400000000000000'),
  ('v3 unordered', '\x03030300000acc930300000000000000e803000000000000640000000000000005000000000000000900000000000000'),
  ('v2 estimation', '\x03020300001acc930300000000000000e803000000000000050000000000000009000000000000006400000000000000'),
  ('v1 estimation', '\x03010300001a00000300000000000000e803000000000000050000000000000009000000000000006400000000000000');

-- what each holds, and whether the export (v3, then v4) gives the bytes back
SELECT name, theta_info(s)->>'retained' AS retained, theta_info(s)->>'lg_k' AS lg_k,
       theta_info(s)->>'theta' AS theta, theta_count(s),
       theta_to_datasketches(s) = bytes AS same_v3, theta_to_datasketches(s, true) = bytes AS same_v4
  FROM (SELECT name, bytes, theta_from_datasketches(bytes) AS s FROM ds_theta) x ORDER BY name;
SELECT theta_to_datasketches(theta_from_datasketches(bytes)) FROM ds_theta WHERE name = 'v3 unordered';
SELECT theta_to_datasketches(theta_from_datasketches(bytes), true) FROM ds_theta WHERE name = 'v3 estimation';
SELECT theta_to_datasketches(theta_from_datasketches(bytes)) FROM ds_theta WHERE name = 'java n0 (seed hash 0)';

-- set operations among imports: {0} is inside {0..9}; the compressed and
-- plain forms hold the same set
CREATE TEMP TABLE ds_imports AS SELECT name, theta_from_datasketches(bytes) AS s FROM ds_theta;
SELECT (SELECT s FROM ds_imports WHERE name = 'cpp n1') || (SELECT s FROM ds_imports WHERE name = 'cpp n10')
       = (SELECT s FROM ds_imports WHERE name = 'cpp n10') AS union_is_n10,
       theta_count((SELECT s FROM ds_imports WHERE name = 'cpp n1') & (SELECT s FROM ds_imports WHERE name = 'cpp n10')) AS intersection,
       theta_count(theta_diff((SELECT s FROM ds_imports WHERE name = 'cpp n10'), (SELECT s FROM ds_imports WHERE name = 'cpp n1'))) AS difference,
       (SELECT s FROM ds_imports WHERE name = 'cpp n10') = (SELECT s FROM ds_imports WHERE name = 'cpp n10 compressed') AS same_set,
       (theta_jaccard((SELECT s FROM ds_imports WHERE name = 'cpp n1'), (SELECT s FROM ds_imports WHERE name = 'cpp n10'))).estimate;
-- the union aggregate over imports (working states of identity 3), and its export
SELECT theta_count(theta_union(s)), theta_to_datasketches(theta_union(s)) = (SELECT bytes FROM ds_theta WHERE name = 'cpp n10')
  FROM ds_imports WHERE name IN ('cpp n0', 'cpp n1', 'cpp n10', 'cpp n10 compressed', 'java v1 empty');
SELECT theta_info(theta_union(s)) ->> 'theta' FROM ds_imports WHERE name IN ('cpp n10', 'cpp non-empty, no entries');
SELECT theta_info(s)->>'element_kind' FROM ds_imports WHERE name = 'cpp n10';

-- never silently with sketches of hash identity 1 (xxh3), nor their values (22023)
\set VERBOSITY sqlstate
SELECT (SELECT s FROM ds_imports WHERE name = 'cpp n10') || theta_agg(i) FROM generate_series(0, 9) i;
SELECT (SELECT s FROM ds_imports WHERE name = 'cpp n10') & theta_agg(i) FROM generate_series(0, 9) i;
SELECT theta_jaccard((SELECT s FROM ds_imports WHERE name = 'cpp n10'), theta_empty());
SELECT theta_union(s) FROM (SELECT s FROM ds_imports WHERE name = 'cpp n10' UNION ALL SELECT theta_agg(1)) x;
SELECT theta_add((SELECT s FROM ds_imports WHERE name = 'cpp n10'), 5);
SELECT theta_to_datasketches(theta_agg(i)) FROM generate_series(0, 9) i;
\set VERBOSITY default
SELECT (SELECT s FROM ds_imports WHERE name = 'cpp n10') || theta_agg(i) FROM generate_series(0, 9) i;
SELECT theta_to_datasketches(theta_agg(i)) FROM generate_series(0, 9) i;

-- malformed bytes and another seed: 22P03 saying what; an update sketch 0A000
SELECT theta_from_datasketches('\x02030300001a00120a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c');
SELECT theta_from_datasketches('\x02030300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f4');
SELECT theta_from_datasketches('\x0104033e011acc930a16861af72df7e45429c550c15b0e52b006633bac22ab4a4865304281678b95103fe12d7d486efc9d0df3aa0896506069c411f6d9350881eb0bd01ccf6535ece5e906da09be81f5');
SELECT theta_from_datasketches('\x03030300001acc930300000000000000e803000000000000050000000000000005000000000000006400000000000000');
SELECT theta_from_datasketches('\x03030300001acc930300000000000000e80300000000000005000000000000000900000000000000e803000000000000');
SELECT theta_from_datasketches('\x03030300001acc930300000000000000e803000000000000000000000000000009000000000000006400000000000000');
SELECT theta_from_datasketches('\x02050300001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c');
SELECT theta_from_datasketches('\x02030100001acc930a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c');
SELECT theta_from_datasketches('\x0303020c0d00cc9300000000000000000000000000000000');
SELECT theta_from_datasketches('\x0103'::bytea);
\set VERBOSITY sqlstate
SELECT theta_from_datasketches('\x02030300001a00120a0000000000000015f97dcbbd86a10540de2ee1c9db3d08698bb991b8685708fe162113fb98bc10bd3273724691cc14c397fc1281709d1ee56b61eec88044201ad1300b998c2f22ba40b3c1da06695de0f48bea9983c37c');
SELECT theta_from_datasketches('\x03030300001acc930300000000000000e803000000000000050000000000000005000000000000006400000000000000');
SELECT theta_from_datasketches('\x0303020c0d00cc9300000000000000000000000000000000');
\set VERBOSITY default
