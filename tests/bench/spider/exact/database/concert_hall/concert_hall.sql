-- Singers, stadiums and concerts (concert_singer style).
CREATE TABLE stadium (
  stadium_id INTEGER PRIMARY KEY,
  name TEXT,
  location TEXT,
  capacity INTEGER,
  highest INTEGER,
  lowest INTEGER,
  average INTEGER
);
CREATE TABLE singer (
  singer_id INTEGER PRIMARY KEY,
  name TEXT,
  country TEXT,
  song_name TEXT,
  song_release_year TEXT,
  age INTEGER,
  is_male TEXT
);
CREATE TABLE concert (
  concert_id INTEGER PRIMARY KEY,
  concert_name TEXT,
  theme TEXT,
  stadium_id INTEGER,
  year TEXT,
  FOREIGN KEY (stadium_id) REFERENCES stadium(stadium_id)
);
CREATE TABLE singer_in_concert (
  concert_id INTEGER,
  singer_id INTEGER,
  PRIMARY KEY (concert_id, singer_id),
  FOREIGN KEY (concert_id) REFERENCES concert(concert_id),
  FOREIGN KEY (singer_id) REFERENCES singer(singer_id)
);
INSERT INTO stadium VALUES (1, 'Stark''s Park', 'Raith Rovers', 10104, 4812, 1294, 2106);
INSERT INTO stadium VALUES (2, 'Somerset Park', 'Ayr United', 11998, 2363, 1057, 1477);
INSERT INTO stadium VALUES (3, 'Glebe Park', 'Brechin City', 3960, 1980, 533, 864);
INSERT INTO stadium VALUES (4, 'Balmoor', 'Peterhead', 4000, 837, 400, 615);
INSERT INTO singer VALUES (1, 'Joe Sharp', 'Netherlands', 'You', '1992', 52, 'F');
INSERT INTO singer VALUES (2, 'Timbaland', 'United States', 'Dangerous', '2008', 32, 'T');
INSERT INTO singer VALUES (3, 'Justin Brown', 'France', 'Hey Oh', '2013', 29, 'T');
INSERT INTO singer VALUES (4, 'Rose White', 'France', 'Sun', '2003', 41, 'F');
INSERT INTO singer VALUES (5, 'John Nizinik', 'France', 'Gentleman', '2014', 43, 'T');
INSERT INTO concert VALUES (1, 'Auditions', 'Free choice', 1, '2014');
INSERT INTO concert VALUES (2, 'Super bootcamp', 'Free choice 2', 2, '2014');
INSERT INTO concert VALUES (3, 'Home Visits', 'Bleeding Love', 2, '2015');
INSERT INTO concert VALUES (4, 'Week 1', 'Wide Awake', 3, '2015');
INSERT INTO singer_in_concert VALUES (1, 2);
INSERT INTO singer_in_concert VALUES (1, 3);
INSERT INTO singer_in_concert VALUES (2, 3);
INSERT INTO singer_in_concert VALUES (3, 5);
INSERT INTO singer_in_concert VALUES (4, 4);
