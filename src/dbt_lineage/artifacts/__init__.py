"""artifacts"""
