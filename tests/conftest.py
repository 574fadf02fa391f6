pytest_plugins = ["tests.dbt_projects"]
