//! Which tables a query reads, across the shapes SQL can take.

use qeval_core::{ParseLimits, SqlDialect, TableName, extract_tables, parse_sql};

fn tables_in(dialect: SqlDialect, sql: &str) -> Vec<String> {
    let statements = parse_sql(sql, dialect, ParseLimits::default())
        .unwrap_or_else(|err| panic!("{sql} did not parse_sql: {err}"));
    extract_tables(&statements)
        .iter()
        .map(TableName::qualified)
        .collect()
}

fn tables(sql: &str) -> Vec<String> {
    tables_in(SqlDialect::Generic, sql)
}

#[test]
fn from_and_join() {
    assert_eq!(
        tables("SELECT * FROM users JOIN orders ON users.id = orders.user_id;"),
        ["users", "orders"]
    );
}

#[test]
fn aliases_resolve_to_base_names() {
    assert_eq!(tables("SELECT u.name FROM users AS u"), ["users"]);
    assert_eq!(
        tables("SELECT * FROM users u LEFT JOIN orders o ON o.user_id = u.id"),
        ["users", "orders"]
    );
}

#[test]
fn names_are_lowercased_and_unquoted() {
    assert_eq!(tables("SELECT * FROM USERS"), ["users"]);
    assert_eq!(tables("SELECT * FROM \"OrderItems\""), ["orderitems"]);
    assert_eq!(
        tables_in(SqlDialect::Mysql, "SELECT * FROM `Users`"),
        ["users"]
    );
    assert_eq!(
        tables_in(SqlDialect::Mssql, "SELECT * FROM [dbo].[Users]"),
        ["dbo.users"]
    );
}

#[test]
fn schema_qualified_names_keep_their_schema() {
    assert_eq!(
        tables("SELECT * FROM sales.orders o JOIN public.users u ON u.id = o.uid"),
        ["sales.orders", "public.users"]
    );
}

#[test]
fn cte_read_in_a_join() {
    assert_eq!(
        tables(
            "WITH a AS (SELECT * FROM users) SELECT * FROM a JOIN orders ON a.id = orders.user_id"
        ),
        ["users", "orders"]
    );
}

#[test]
fn cte_names_shadow_tables_only_where_visible() {
    // Inside a non-recursive CTE body, the CTE's own name is the base table.
    assert_eq!(
        tables("WITH users AS (SELECT * FROM users WHERE active) SELECT * FROM users"),
        ["users"]
    );
    // A later CTE reads an earlier one, which is not a table.
    assert_eq!(
        tables(
            "WITH a AS (SELECT * FROM t1), b AS (SELECT * FROM a JOIN t2 ON true) SELECT * FROM b"
        ),
        ["t1", "t2"]
    );
    // An earlier CTE cannot see a later one: there `b` is a base table.
    assert_eq!(
        tables("WITH a AS (SELECT * FROM b), b AS (SELECT 1) SELECT * FROM a"),
        ["b"]
    );
    // A CTE is not visible outside the query that defines it.
    assert_eq!(
        tables("SELECT * FROM (WITH x AS (SELECT * FROM t) SELECT * FROM x) d JOIN x ON true"),
        ["t", "x"]
    );
}

#[test]
fn recursive_cte_reads_itself_not_a_table() {
    assert_eq!(
        tables(
            "WITH RECURSIVE tree AS (SELECT id FROM nodes WHERE parent IS NULL \
             UNION ALL SELECT n.id FROM nodes n JOIN tree ON n.parent = tree.id) SELECT * FROM tree"
        ),
        ["nodes"]
    );
}

#[test]
fn correlated_subquery_in_where() {
    assert_eq!(
        tables(
            "SELECT name FROM employees e WHERE salary > \
             (SELECT AVG(salary) FROM employees e2 WHERE e2.dept = e.dept)"
        ),
        ["employees"]
    );
    assert_eq!(
        tables(
            "SELECT * FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cid = c.id)"
        ),
        ["customers", "orders"]
    );
    assert_eq!(
        tables("SELECT * FROM a WHERE id IN (SELECT a_id FROM b) AND x NOT IN (SELECT x FROM c)"),
        ["a", "b", "c"]
    );
}

#[test]
fn subqueries_in_select_list_and_having() {
    assert_eq!(
        tables("SELECT id, (SELECT COUNT(*) FROM orders o WHERE o.uid = u.id) FROM users u"),
        ["orders", "users"]
    );
    assert_eq!(
        tables(
            "SELECT dept, COUNT(*) FROM emp GROUP BY dept \
             HAVING COUNT(*) > (SELECT AVG(n) FROM dept_sizes)"
        ),
        ["emp", "dept_sizes"]
    );
}

#[test]
fn set_operations() {
    assert_eq!(
        tables("SELECT id FROM a UNION SELECT id FROM b UNION ALL SELECT id FROM c"),
        ["a", "b", "c"]
    );
    assert_eq!(
        tables("SELECT id FROM a INTERSECT SELECT id FROM b EXCEPT SELECT id FROM a"),
        ["a", "b"]
    );
}

#[test]
fn derived_tables_with_aliases() {
    assert_eq!(
        tables(
            "SELECT t.n FROM (SELECT COUNT(*) AS n FROM orders) AS t \
             JOIN (SELECT * FROM users) u ON true"
        ),
        ["orders", "users"]
    );
}

#[test]
fn table_functions_are_not_tables() {
    assert_eq!(
        tables_in(
            SqlDialect::Postgres,
            "SELECT * FROM generate_series(1, 3) g JOIN t ON true"
        ),
        ["t"]
    );
}

#[test]
fn each_table_once_in_first_appearance_order() {
    assert_eq!(
        tables("SELECT * FROM b JOIN a ON true WHERE b.x IN (SELECT x FROM b)"),
        ["b", "a"]
    );
}

#[test]
fn queries_without_tables() {
    assert!(tables("SELECT 1 + 1").is_empty());
    // An empty quoted name (found by the fuzz test) names no table.
    assert_eq!(tables("SELECT * FROM \"\" JOIN t ON true"), ["t"]);
}

#[test]
fn every_dialect_reads_its_own_syntax() {
    let cases = [
        (SqlDialect::Sqlite, "SELECT * FROM \"t\" LIMIT 5 OFFSET 2"),
        (
            SqlDialect::Postgres,
            "SELECT x::int FROM t WHERE y ILIKE 'a%'",
        ),
        (SqlDialect::Mysql, "SELECT * FROM `t` LIMIT 2, 5"),
        (SqlDialect::Mssql, "SELECT TOP 5 * FROM [t] WITH (NOLOCK)"),
        (SqlDialect::Bigquery, "SELECT * FROM `proj.ds.t`"),
        (
            SqlDialect::Snowflake,
            "SELECT * FROM t QUALIFY ROW_NUMBER() OVER (ORDER BY x) = 1",
        ),
        (SqlDialect::Duckdb, "SELECT * EXCLUDE (a) FROM t"),
        (SqlDialect::Ansi, "SELECT * FROM t FETCH FIRST 5 ROWS ONLY"),
    ];
    for (dialect, sql) in cases {
        let found = tables_in(dialect, sql);
        assert_eq!(found.len(), 1, "{dialect}: {sql} gave {found:?}");
        assert!(found[0].ends_with('t'), "{dialect}: {sql} gave {found:?}");
    }
}

#[test]
fn listed_names_are_read_like_sql_names() {
    let read = |s: &str| TableName::parse_listed(s).map(|t| t.qualified());
    assert_eq!(read("Users"), Ok("users".to_string()));
    assert_eq!(
        read(" sales.\"Order Items\" "),
        Ok("sales.order items".to_string())
    );
    assert_eq!(read("[dbo].[T]"), Ok("dbo.t".to_string()));
    assert_eq!(read("`db`.`t`"), Ok("db.t".to_string()));
    assert!(read("\"open").is_err());
    assert!(read("a..b").is_err());
    assert!(read("").is_err());
}
