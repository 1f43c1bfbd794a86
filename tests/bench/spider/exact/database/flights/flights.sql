-- Airlines, airports and flights: the flight's source_airport and dest_airport
-- both reference airport.airport_code, and flight.airline references airline.airline_id.
CREATE TABLE airline (
  airline_id INTEGER PRIMARY KEY,
  airline_name TEXT,
  abbreviation TEXT,
  country TEXT
);
CREATE TABLE airport (
  airport_code TEXT PRIMARY KEY,
  airport_name TEXT,
  city TEXT,
  country TEXT,
  elevation INTEGER
);
CREATE TABLE flight (
  flight_no INTEGER PRIMARY KEY,
  airline INTEGER,
  source_airport TEXT,
  dest_airport TEXT,
  distance INTEGER,
  price REAL,
  FOREIGN KEY (airline) REFERENCES airline(airline_id),
  FOREIGN KEY (source_airport) REFERENCES airport(airport_code),
  FOREIGN KEY (dest_airport) REFERENCES airport(airport_code)
);
INSERT INTO airline VALUES (1, 'Blue Air', 'BLU', 'Norway');
INSERT INTO airline VALUES (2, 'Red Wings', 'RWG', 'Peru');
INSERT INTO airline VALUES (3, 'Sky Jet', 'SKJ', 'Norway');
INSERT INTO airport VALUES ('OSL', 'Gardermoen', 'Oslo', 'Norway', 208);
INSERT INTO airport VALUES ('LIM', 'Jorge Chavez', 'Lima', 'Peru', 34);
INSERT INTO airport VALUES ('CUZ', 'Velasco Astete', 'Cusco', 'Peru', 3310);
INSERT INTO airport VALUES ('BGO', 'Flesland', 'Bergen', 'Norway', 50);
INSERT INTO flight VALUES (1, 1, 'OSL', 'BGO', 305, 89.0);
INSERT INTO flight VALUES (2, 1, 'BGO', 'OSL', 305, 95.0);
INSERT INTO flight VALUES (3, 2, 'LIM', 'CUZ', 585, 120.0);
INSERT INTO flight VALUES (4, 2, 'CUZ', 'LIM', 585, 110.0);
INSERT INTO flight VALUES (5, 3, 'OSL', 'LIM', 10500, 950.0);
INSERT INTO flight VALUES (6, 1, 'OSL', 'LIM', 10500, 870.0);
