-- Mixed-case table and column names, as in several Spider databases.
CREATE TABLE Club (
  Club_ID INTEGER PRIMARY KEY,
  Club_Name TEXT,
  Region TEXT,
  Start_Year INTEGER
);
CREATE TABLE Player (
  Player_ID INTEGER PRIMARY KEY,
  Name TEXT,
  Position TEXT,
  Club_ID INTEGER,
  Apps INTEGER,
  Goals INTEGER,
  FOREIGN KEY (Club_ID) REFERENCES Club(Club_ID)
);
CREATE TABLE Match_Result (
  Rank INTEGER PRIMARY KEY,
  Club_ID INTEGER,
  Gold INTEGER,
  Silver INTEGER,
  Points INTEGER,
  FOREIGN KEY (Club_ID) REFERENCES Club(Club_ID)
);
INSERT INTO Club VALUES (1, 'AIB', 'USA', 2009);
INSERT INTO Club VALUES (2, 'BK Slide', 'UK', 1998);
INSERT INTO Club VALUES (3, 'IFG', 'China', 2005);
INSERT INTO Club VALUES (4, 'ASC', 'Japan', 2001);
INSERT INTO Player VALUES (1, 'Ana Ruiz', 'Forward', 1, 30, 12);
INSERT INTO Player VALUES (2, 'Ben Holt', 'Defender', 1, 28, 1);
INSERT INTO Player VALUES (3, 'Cho Min', 'Forward', 2, 33, 20);
INSERT INTO Player VALUES (4, 'Dan Ek', 'Goalkeeper', 3, 34, 0);
INSERT INTO Player VALUES (5, 'Eli Saar', 'Midfielder', 3, 21, 5);
INSERT INTO Match_Result VALUES (1, 1, 20, 14, 168);
INSERT INTO Match_Result VALUES (2, 2, 13, 11, 139);
INSERT INTO Match_Result VALUES (3, 3, 12, 9, 102);
INSERT INTO Match_Result VALUES (4, 4, 5, 12, 89);
